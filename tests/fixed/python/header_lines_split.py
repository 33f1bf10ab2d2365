# A client sends the lines of one request with a sendall each, then waits for the
# reply: two different calls split one message, and the second one stalls.
import socket


def fetch(host, path):
    sock = socket.create_connection((host, 80))
    request_line = f"GET {path} HTTP/1.1\r\n".encode()
    headers = f"Host: {host}\r\nConnection: close\r\n\r\n".encode()
    sock.sendall(request_line + headers)  # expect: NGL001
    reply = sock.recv(65536)
    sock.close()
    return reply
