# TCP_NODELAY turned on by a helper applies to the connection the helper is
# given: the split request after it is no stall but the band-aid (NGL002 at the
# helper's option, naming the split). A helper turning it on for another
# connection leaves the split on this one to stall.
import socket


def tune(sock):
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # expect: NGL002


def tune_other(sock, other):
    other.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # expect: NGL002


def request(host, head, body):
    sock = socket.create_connection((host, 80))
    tune(sock)
    sock.sendall(head)
    sock.sendall(body)
    return sock.recv(100)


def request_other(host, head, body, log):
    sock = socket.create_connection((host, 80))
    tune_other(sock, log)
    sock.sendall(head + body)  # expect: NGL001
    return sock.recv(100)


class Client:
    def __init__(self, host):
        self.sock = socket.create_connection((host, 80))
        self._tune()

    def _tune(self):
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # expect: NGL002

    def request(self, head, body):
        self.sock.sendall(head)
        self.sock.sendall(body)
        return self.sock.recv(100)
