# A command sent in two pieces before the line reader waits for its answer:
# the reader's read is the one the second piece holds up.
import socket


def read_line(sock, buf):
    while True:
        if b"\r\n" in buf:
            line, _, rest = buf.partition(b"\r\n")
            return line, rest
        data = sock.recv(4096)
        if not data:
            raise ConnectionError("closed")
        buf += data


def command(host, port, name, arg):
    sock = socket.create_connection((host, port))
    sock.sendall(name + b" " + (arg + b"\r\n"))  # expect: NGL001
    reply, _ = read_line(sock, b"")
    return reply
