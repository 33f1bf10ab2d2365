# A block sent in chunks, each after a two-byte header of its own, then the answer read:
# every pass splits one frame in two, and the header is that split's first piece. One
# pattern, one finding: the split (NGL001), not also the header as a tiny write (NGL003).
import socket
import struct

CHUNK = 8190


def put_block(host, port, block):
    sock = socket.create_connection((host, port))
    pos = 0
    while pos < len(block):
        data = block[pos:pos + CHUNK]
        sock.sendall(struct.pack("<H", len(data)) + data)  # expect: NGL001
        pos += len(data)
    return sock.recv(2)


def put_block_unanswered(host, port, block):
    # No read after it: no split to report, and the header is a tiny write on every pass.
    sock = socket.create_connection((host, port))
    for pos in range(0, len(block), CHUNK):
        data = block[pos:pos + CHUNK]
        sock.sendall(struct.pack("<H", len(data)))  # expect: NGL003
        sock.sendall(data)
    sock.close()
