# A selectors-based server: the read callback answers with the header and the body
# in two sends and returns to the event loop. The client waits for the body, and the
# callback, called again for the next request, waits in recv: the stall of NGL001.
import selectors
import socket

sel = selectors.DefaultSelector()
HEADER = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n"


def accept(srv):
    conn, _ = srv.accept()
    conn.setblocking(False)
    sel.register(conn, selectors.EVENT_READ, respond)


def respond(conn):
    data = conn.recv(4096)
    if not data:
        sel.unregister(conn)
        conn.close()
        return
    conn.send(HEADER + b"hello")  # expect: NGL001


def main():
    srv = socket.create_server(("127.0.0.1", 8080))
    srv.setblocking(False)
    sel.register(srv, selectors.EVENT_READ, accept)
    while True:
        for key, _ in sel.select():
            key.data(key.fileobj)
