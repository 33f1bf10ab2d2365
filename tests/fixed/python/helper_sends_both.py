# One helper sends header and body apart; its callers read the reply right after.
# The finding is inside the helper at its second send, once, even with two callers.
import socket
import struct


def send_message(sock, kind, body):
    sock.sendall(struct.pack("!BI", kind, len(body)) + body)  # expect: NGL001


def ping(sock):
    send_message(sock, 0, b"")
    return sock.recv(5)


def store(sock, blob):
    send_message(sock, 1, blob)
    return sock.recv(5)


def main():
    sock = socket.create_connection(("127.0.0.1", 5556))
    ping(sock)
    store(sock, b"payload" * 10)
    sock.close()


if __name__ == "__main__":
    main()
