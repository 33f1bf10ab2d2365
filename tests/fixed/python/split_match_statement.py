# A small key-value client dispatching with match: only the "set" case sends its
# command line and its value apart; the other cases send one line each.
import socket


def execute(sock, command):
    match command:
        case ("ping",):
            sock.sendall(b"PING\r\n")
        case ("get", key):
            sock.sendall(f"GET {key}\r\n".encode())
        case ("set", key, value):
            sock.sendall(f"SET {key} {len(value)}\r\n".encode() + (value + b"\r\n"))  # expect: NGL001
        case _:
            raise ValueError(f"unknown command: {command!r}")
    return sock.recv(4096)


def main():
    with socket.create_connection(("127.0.0.1", 7379)) as sock:
        execute(sock, ("set", "colour", b"blue"))
        print(execute(sock, ("get", "colour")))


if __name__ == "__main__":
    main()
