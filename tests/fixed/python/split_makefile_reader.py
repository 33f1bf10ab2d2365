# The response is read through a buffered reader from sock.makefile('rb'); its
# readline/read are reads on the socket, so the split request before them stalls.
import socket


def fetch(host, port, path):
    sock = socket.socket()
    sock.connect((host, port))
    rfile = sock.makefile("rb")
    sock.sendall(f"GET {path} HTTP/1.0\r\n".encode("ascii") + b"Accept: */*\r\n\r\n")  # expect: NGL001
    status = rfile.readline()
    headers = {}
    while True:
        line = rfile.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = rfile.read(int(headers.get("content-length", "0")))
    rfile.close()
    sock.close()
    return status, body
