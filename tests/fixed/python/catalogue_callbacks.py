# Functions a framework calls again for every request: one that reads, answers
# in two pieces and returns stalls the peer waiting for the whole answer
# (medium confidence on a connection named like one); a function of any other
# name may not be called again, which proves less (low).
# catalogue: callbacks.*


class EchoHandler:
    def handle(self, conn):
        data = conn.recv(100)
        conn.sendall(b"%d\r\n" % len(data) + data)  # expect: NGL001

    def handle_one_request(self, conn):
        data = conn.recv(100)
        conn.sendall(b"%d\r\n" % len(data) + data)  # expect: NGL001

    def data_received(self, conn):
        data = conn.recv(100)
        conn.sendall(b"%d\r\n" % len(data) + data)  # expect: NGL001

    def reply(self, conn):
        data = conn.recv(100)
        conn.sendall(b"%d\r\n" % len(data))
        conn.sendall(data)
