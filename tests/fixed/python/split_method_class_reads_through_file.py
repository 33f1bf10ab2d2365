# A client class given its socket by the caller reads the replies through a
# file over it (makefile), in a method of its own: the request one method
# writes in two pieces and leaves is answered there, so its split is reported.
import struct


class LineClient(object):
    def __init__(self, sock):
        self.sock = sock
        self.rfile = sock.makefile("rb")

    def send_command(self, opcode, argument):
        self.sock.sendall(struct.pack(">HI", opcode, len(argument)) + argument)  # expect: NGL001

    def read_line(self):
        return self.rfile.readline()
