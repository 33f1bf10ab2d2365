# The reply is read by the response object's constructor, through a helper of
# its class (`self._read_status()`): making the object is the read that waits
# for the peer, so the split request before it stalls.
import socket


class Response(object):
    def __init__(self, sock):
        self.sock = sock
        self.status = self._read_status()

    def _read_status(self):
        return self.sock.recv(4096)


def request(host, head, body):
    sock = socket.create_connection((host, 80))
    sock.sendall(head + body)  # expect: NGL001
    return Response(sock)


def request_whole(host, head, body):
    sock = socket.create_connection((host, 80))
    sock.sendall(head + body)
    return Response(sock)
