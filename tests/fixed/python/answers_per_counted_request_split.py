"""The same batch server, but each answer leaves in two pieces (its status word, then its text)
within one pass of the loop over the counted commands: the client waits for the whole answer, so
the second piece still stalls."""
import socket


def answer(conn, command):
    if command == 0x01:
        conn.sendall(b"OK " + b"PONG\n")  # expect: NGL001
        return
    conn.sendall(b"ERR unknown command\n")


def serve(port):
    listener = socket.create_server(("", port))
    conn, _ = listener.accept()
    while True:
        batch = conn.recv(256)
        if not batch:
            conn.close()
            return
        count = batch[0]
        for i in range(count):
            answer(conn, batch[1 + i])
