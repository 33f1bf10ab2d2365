# A thread-per-connection server turns TCP_NODELAY on for each accepted
# socket, then hands it to a handler object run on a thread of its own.  The
# handler answers each request in two sends: with Nagle off they do not
# stall: the handler's attribute holds a connection with TCP_NODELAY on in
# every method, so the option is the band-aid (NGL002, a warning), and no
# NGL001 is due.  A handler made over a socket that got no such option stalls.
import socket
import threading


class RequestHandler:
    def __init__(self, conn):
        self.conn = conn

    def run(self):
        while self.conn.recv(1):
            self.conn.sendall(b"H\x02")
            self.conn.sendall(b"ok")


def serve(port):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("", port))
    server.listen()
    while True:
        conn, _ = server.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # expect: NGL002
        handler = RequestHandler(conn)
        threading.Thread(target=handler.run).start()


class PlainRequestHandler:
    def __init__(self, conn):
        self.conn = conn

    def run(self):
        while self.conn.recv(1):
            self.conn.sendall(b"H\x02" + b"ok")  # expect: NGL001


def serve_plain(port):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("", port))
    server.listen()
    while True:
        conn, _ = server.accept()
        handler = PlainRequestHandler(conn)
        threading.Thread(target=handler.run).start()
