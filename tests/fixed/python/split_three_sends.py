# Three separate sends (opcode, length, data) on a TCP socket and then a read into a
# buffer: one finding only, at the second send, the first one Nagle holds back.
import socket
import struct

OP_STORE = 0x02


def store(host, port, data):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # catalogue: tcp_makers.socket, plain_tcp_words.AF_INET, plain_tcp_words.SOCK_STREAM
    sock.connect((host, port))
    # catalogue: sends.send
    # expect: NGL001
    sock.send(bytes([OP_STORE]) + struct.pack("!I", len(data)) + data)
    status = bytearray(2)
    got = sock.recv_into(status)  # catalogue: reads.recv_into
    sock.close()
    if got != 2 or status != b"OK":
        raise IOError("store failed: %r" % bytes(status[:got]))


def main():
    store("10.0.0.5", 7070, b"x" * 300)


if __name__ == "__main__":
    main()
