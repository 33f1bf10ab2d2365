# request() calls itself to retry on a fresh connection after a reset. Recursion
# changes nothing for the split inside it: the body still stalls before recv.
import socket


def request(addr, head, body, retries=2):
    sock = socket.create_connection(addr, timeout=5)
    try:
        sock.sendall(head + body)  # expect: NGL001
        return sock.recv(4096)
    except (ConnectionResetError, socket.timeout):
        if retries == 0:
            raise
        return request(addr, head, body, retries - 1)
    finally:
        sock.close()


if __name__ == "__main__":
    request(("127.0.0.1", 7000), b"PUT 5\n", b"hello")
