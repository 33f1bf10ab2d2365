# A client class given its socket by the caller, reading the replies through a
# file it makes over that socket: the file is the socket's reader, not a method
# of some object the caller gave, so the reply read there answers the command
# written before it in two pieces.


class LineClient(object):
    def __init__(self, sock):
        self.sock = sock
        self.rfile = self.sock.makefile("rb")

    def command(self, name, argument):
        self.sock.sendall(name + (b" " + argument + b"\r\n"))  # expect: NGL001
        return self.rfile.readline()

    def command_whole(self, name, argument):
        self.sock.sendall(name + b" " + argument + b"\r\n")
        return self.rfile.readline()
