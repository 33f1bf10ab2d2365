# Lines are pushed one by one and each is acknowledged. Comment lines are skipped
# with continue and a refusal ends the loop with break; every line that is sent
# goes out as a length and a body in two sends before the ack is read.
import socket
import struct


def push_lines(sock, lines):
    sent = 0
    for line in lines:
        if line.startswith("#"):
            continue
        data = line.encode("utf-8")
        sock.sendall(struct.pack("!H", len(data)) + data)  # expect: NGL001
        if sock.recv(1) != b"+":
            break
        sent += 1
    return sent


def main():
    with open("batch.txt", encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    with socket.create_connection(("127.0.0.1", 6000)) as sock:
        print(push_lines(sock, lines), "lines accepted")


if __name__ == "__main__":
    main()
