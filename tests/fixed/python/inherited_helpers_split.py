# A client class whose framing methods live in its base class: `self.send()`
# and `self.recv()` in the subclass run the base class's methods, which write
# the size and the data with two sends on the same socket, then read.
import socket
import struct


class Socket:
    def __init__(self, host, port):
        self.sock = socket.create_connection((host, port))


class Client(Socket):
    def send(self, data):
        self.sock.sendall(struct.pack("!I", len(data)) + data)  # expect: NGL001

    def recv(self):
        size = struct.unpack("!I", self.sock.recv(4))[0]
        return self.sock.recv(size)


class RpcClient(Client):
    def call(self, request):
        self.send(request)
        return self.recv()
