# MSG_MORE tells Linux more data follows. Here it is also put on the last piece, so
# the whole record waits for data that never comes (up to 200 ms) before the ack.
import socket
import struct


def send_record(sock, kind, data):
    sock.sendall(struct.pack("!BI", kind, len(data)), socket.MSG_MORE)
    sock.sendall(data)  # expect: NGL004  catalogue: more_flags.MSG_MORE
    return sock.recv(1) == b"\x00"


def main():
    sock = socket.create_connection(("127.0.0.1", 6060))
    send_record(sock, 3, b"temperature=21.5")
    sock.close()


if __name__ == "__main__":
    main()
