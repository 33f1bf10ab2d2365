# A client class given its socket by the caller: one method writes a request in
# two pieces and returns, another reads the reply on the same field. The class
# reads its peer's answers there, so the request split at the end of
# send_request() is a message the peer waits to have whole before it answers.
import struct


class Client(object):
    def __init__(self, sock):
        self.sock = sock

    def send_request(self, opcode, body):
        self.sock.sendall(struct.pack(">HI", opcode, len(body)) + body)  # expect: NGL001

    def send_whole(self, opcode, body):
        self.sock.sendall(struct.pack(">HI", opcode, len(body)) + body)

    def read_reply(self):
        header = self.sock.recv(6)
        return header
