# The size goes with send() and the data with sendall(), whose result (None) is
# kept: joined, both go through sendall(). Where the second is a send() whose
# count is kept, joining would change what the count means: no fix.
import socket
import struct


def frame(host, port, data):
    sock = socket.create_connection((host, port))
    sent = sock.sendall(struct.pack("!I", len(data)) + data)  # expect: NGL001
    if sent is not None:
        raise ConnectionError("broken")
    return sock.recv(1)


def counted(host, port, data):
    sock = socket.create_connection((host, port))
    sock.sendall(struct.pack("!I", len(data)))
    sent = sock.send(data)  # expect: NGL001
    if sent != len(data):
        raise ConnectionError("short write")
    return sock.recv(1)
