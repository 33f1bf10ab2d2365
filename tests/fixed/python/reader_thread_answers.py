# A publisher splits each message and returns: whether that stalls depends on
# the peer answering. Where a reader thread of the same object reads the
# connection, the peer answers, and its delayed ACK holds the second piece.
# Where nothing in sight reads the connection, that is not told, and the
# default confidence should not report it: a known gap (the connection made in
# the constructor is high-confidence, so the split at the method's end still
# reaches medium, reader or not).
import socket
import threading


class Publisher(object):
    def __init__(self, address):
        self.peer = socket.create_connection(address)
        threading.Thread(target=self._read_acks, daemon=True).start()

    def _read_acks(self):
        while True:
            if not self.peer.recv(4096):
                break

    def publish(self, head, body):
        self.peer.send(head + body)  # expect: NGL001


class Feed(object):
    def __init__(self, address):
        self.peer = socket.create_connection(address)

    def publish(self, head, body):
        self.peer.send(head + body)  # todo-ok: NGL001
