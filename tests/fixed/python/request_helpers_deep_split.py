"""The same client, but the last layer sends each request in two pieces (its verb, then the rest
of the line) before it reads the reply: the server answers only the whole line, so the second
piece waits for the delayed ACK, however deep the layers above it."""
import socket


class Client:
    def __init__(self, host, port):
        self.sock = socket.create_connection((host, port))

    def status(self):
        self.login()
        return self.query(b"STATUS", b"\n")

    def login(self):
        return self.query(b"LOGIN", b" guest\n")

    def query(self, verb, rest):
        return self._exchange(verb, rest)

    def _exchange(self, verb, rest):
        return self._transfer(verb, rest)

    def _transfer(self, verb, rest):
        self.sock.sendall(verb + rest)  # expect: NGL001
        return self._reply()

    def _reply(self):
        return self.sock.recv(4096)
