# The header and the body leave in two sends, then the client waits in an
# imported select() for the answer: the body waits for the delayed ACK.
import socket
from select import select


def call(host, port, header, body):
    with socket.create_connection((host, port)) as sock:
        sock.sendall(header + body)  # expect: NGL001
        ready, _, _ = select([sock], [], [], 5.0)
        return ready
