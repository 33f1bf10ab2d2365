# TLS does not help: each sendall on an SSL socket becomes its own record and its
# own TCP send, so a request line and headers sent apart stall before the reply.
import socket
import ssl


def fetch_status(host, path="/"):
    ctx = ssl.create_default_context()
    raw = socket.create_connection((host, 443), timeout=10)
    tls = ctx.wrap_socket(raw, server_hostname=host)  # catalogue: wrappers.wrap_socket
    try:
        tls.sendall(f"GET {path} HTTP/1.1\r\n".encode("ascii") + f"Host: {host}\r\nConnection: close\r\n\r\n".encode("ascii"))  # expect: NGL001
        first = tls.recv(4096)
    finally:
        tls.close()
    status_line = first.split(b"\r\n", 1)[0]
    return int(status_line.split()[1])


if __name__ == "__main__":
    print(fetch_status("example.org"))
