# The fixes of split requests read the Python catalogue for which calls join (their
# one argument is the payload), which of them send every byte or raise, and which
# calls make bytes for sure (what makes joining two sendall()s safe).
import socket
import struct
from struct import pack


def hello(host, port, name):
    sock = socket.create_connection((host, port))
    # catalogue: joinable_sends.sendall, whole_sends.sendall
    sock.sendall(b"HELLO " + name.encode("ascii"))  # expect: NGL001  catalogue: bytes_calls..encode
    return sock.recv(2)


def ping(host, port, token):
    sock = socket.create_connection((host, port))
    # catalogue: joinable_sends.send
    sock.send(b"PING " + token)  # expect: NGL001
    return sock.recv(4)


def put(host, port, value):
    sock = socket.create_connection((host, port))
    wfile = sock.makefile("wb", buffering=0)
    # catalogue: joinable_sends.write
    wfile.write(b"PUT " + value)  # expect: NGL001
    return sock.recv(1)


def length_prefixed(host, port, body):
    sock = socket.create_connection((host, port))
    # catalogue: bytes_calls..pack
    sock.sendall(struct.pack("!I", len(body)) + bytes(body))  # expect: NGL001  catalogue: bytes_calls.bytes
    return sock.recv(1)


def short_prefixed(host, port, body):
    sock = socket.create_connection((host, port))
    # catalogue: bytes_calls.pack
    sock.sendall(pack("!H", len(body)) + bytearray(body))  # expect: NGL001  catalogue: bytes_calls.bytearray
    return sock.recv(1)


def view_body(host, port, view):
    sock = socket.create_connection((host, port))
    sock.sendall(b"BODY " + memoryview(view).tobytes())  # expect: NGL001  catalogue: bytes_calls..tobytes
    return sock.recv(1)
