# makefile('wb', buffering=0) on a TLS socket writes straight through: each write
# is its own record and send, so the headers stall behind the request line.
import socket
import ssl


def head_status(host, path="/"):
    ctx = ssl.create_default_context()
    with socket.create_connection((host, 443), timeout=10) as raw:
        with ctx.wrap_socket(raw, server_hostname=host) as tls:
            wfile = tls.makefile("wb", buffering=0)
            rfile = tls.makefile("rb")
            wfile.write(f"HEAD {path} HTTP/1.1\r\n".encode("ascii") + f"Host: {host}\r\nConnection: close\r\n\r\n".encode("ascii"))  # expect: NGL001
            status = rfile.readline()
            wfile.close()
            rfile.close()
    return int(status.split()[1])


if __name__ == "__main__":
    print(head_status("example.org"))
