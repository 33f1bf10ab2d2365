# TCP_NODELAY behind the user's setting, and the request sent in two pieces
# before the reply is read. With the setting off (its default) the second piece
# waits for the delayed ACK: NGL001. With it on, no stall, but two packets:
# NGL006 (off unless selected). The option itself is the user's choice: no
# NGL002. fixture-select: NGL006
import socket


class Client:
    def __init__(self, host, port, tcp_nodelay=False):
        self.sock = socket.create_connection((host, port))
        if tcp_nodelay:
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def get(self, key):
        self.sock.sendall(b"GET " + (key + b"\r\n"))  # expect: NGL001, NGL006
        return self.sock.recv(4096)
