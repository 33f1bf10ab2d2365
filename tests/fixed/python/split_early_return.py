# A frame with no payload returns early after a single send and its reply (fine);
# a frame with a payload sends it separately before the reply is read (flagged).
import struct


def send_frame(sock, opcode, payload=None):
    header = struct.pack("!BH", opcode, len(payload) if payload else 0)
    if payload is None:
        sock.sendall(header)
        return sock.recv(3)
    sock.sendall(header + payload)  # expect: NGL001
    return sock.recv(3)


def ping(sock):
    return send_frame(sock, 0x09) == b"\x0a\x00\x00"


def echo(sock, text):
    return send_frame(sock, 0x01, text.encode())
