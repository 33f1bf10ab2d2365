# The length and the body leave in two sends and then the client waits in
# select() for the answer: the body waits for the server's delayed ACK.
import select
import socket
import struct


def call(host, port, body):
    with socket.create_connection((host, port)) as sock:
        sock.sendall(struct.pack("!I", len(body)) + body)  # expect: NGL001
        ready, _, _ = select.select([sock], [], [], 5.0)  # catalogue: readiness_waits.select.select
        return ready
