"""The same server, but it answers each request in two pieces, a status word and then the
request echoed, before it reads the next request: the client waits for the whole answer,
so the second piece stalls, whatever the loop does when a connection is reset."""
import socket


class Listener:
    def __init__(self, port):
        self.server = socket.create_server(("", port))
        self.conn = None

    def wait_for_connection(self):
        self.conn, _ = self.server.accept()
        hello = self.conn.recv(1024)
        if hello.startswith(b"HELLO"):
            self.conn.sendall(b"WELCOME\n")
        self.serve()

    def serve(self):
        request = b""
        while True:
            try:
                request = self.conn.recv(1024)
            except ConnectionResetError:
                self.wait_for_connection()
            if request:
                self.conn.sendall(b"OK " + request)  # expect: NGL001
