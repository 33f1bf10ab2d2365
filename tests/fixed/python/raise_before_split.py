# A raise on one branch does not hide a split on the other: the header and the
# body still leave in two writes before the answer is read.
import socket


def send_record(sock: socket.socket, record: bytes):
    if not record:
        raise ValueError("empty record")
    sock.sendall(len(record).to_bytes(4, "big") + record)  # expect: NGL001
    return sock.recv(2)
