"""The same server, but each answer leaves in two pieces (its status word, then its text) within
one pass of the loop over the lines read: the client waits for the whole answer, so the second
piece still stalls."""
import socket


def answer(conn, request):
    if request == b"PING":
        conn.sendall(b"OK " + b"PONG\n")  # expect: NGL001
        return
    conn.sendall(b"ERR unknown command\n")


def serve(port):
    listener = socket.create_server(("", port))
    conn, _ = listener.accept()
    while True:
        data = conn.recv(4096)
        if not data:
            conn.close()
            return
        for request in data.splitlines():
            answer(conn, request)
