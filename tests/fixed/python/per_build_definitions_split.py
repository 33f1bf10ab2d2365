"""A function defined once per platform: one definition joins the header and the body into one
send, the other sends them in two pieces, and the read after the call waits on that platform."""
import socket
import sys

if sys.platform == "win32":
    def send_message(sock, head, body):
        sock.sendall(head + body)  # expect: NGL001
else:
    def send_message(sock, head, body):
        sock.sendall(head + body)


def ask(head, body):
    sock = socket.create_connection(("db.example", 5432))
    send_message(sock, head, body)
    return sock.recv(64)
