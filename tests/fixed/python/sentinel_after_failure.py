# `None` after a failed connect marks the connection gone on that path only:
# where the code goes on, the name still holds the TCP socket made above it,
# and its request is split before the reply is read.
import socket


class Link(object):
    def __init__(self, address):
        self.peer = None
        self.address = address

    def reconnect(self):
        try:
            self.peer = socket.create_connection(self.address)
        except OSError:
            self.peer = None

    def ask(self, head, body):
        self.peer.send(head + body)  # expect: NGL001
        return self.peer.recv(4096)


def ask_once(address, head, body):
    try:
        peer = socket.create_connection(address)
    except OSError:
        peer = None
    if peer is None:
        return None
    peer.send(head + body)  # expect: NGL001
    return peer.recv(4096)
