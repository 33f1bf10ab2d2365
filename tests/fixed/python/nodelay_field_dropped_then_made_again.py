# The field is dropped to None and given a new connection made right there, without the
# option the other method turns on: the new connection has Nagle, and the split
# authentication before the read stalls.
import socket


class Client:
    def connect(self, host, port):
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # expect: NGL002

    def reconnect(self, host, port, token):
        self.sock.close()
        self.sock = None
        self.sock = socket.create_connection((host, port))
        self.sock.sendall(b"AUTH " + (token + b"\r\n"))  # expect: NGL001
        return self.sock.recv(512)
