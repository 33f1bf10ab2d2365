# TCP_CORK is set before the request is written but never cleared, so the corked
# data sits in the kernel (up to 200 ms) while the client blocks in recv.
import socket


def fetch(host, port, path):
    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)  # expect: NGL004  catalogue: option_setters.setsockopt, options.TCP_CORK
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n".encode("ascii"))
    sock.sendall(b"Connection: close\r\n\r\n")
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 0)
    chunks = []
    while True:
        data = sock.recv(65536)
        if not data:
            break
        chunks.append(data)
    sock.close()
    return b"".join(chunks)


if __name__ == "__main__":
    print(fetch("127.0.0.1", 8080, "/")[:80])
