# TCP_NODELAY turned on in one class's constructor says nothing of another
# class that is not derived from it, whatever its field is called.
import socket
import struct


class Connection:
    def __init__(self, host, port):
        self.sock = socket.create_connection((host, port))
        # Each request is one sendall of a whole frame; replies are latency-bound.
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class Other:
    def __init__(self, host, port):
        self.sock = socket.create_connection((host, port))

    def call(self, data):
        self.sock.sendall(struct.pack("!I", len(data)) + data)  # expect: NGL001
        return self.sock.recv(4096)
