# A benchmark client that can send each message split or joined. Only the split
# branch sends two pieces before the reply is read, so only its second send is
# flagged; the joined branch is the fix.
import socket
import struct
import time


def run(host, port, rounds, size, split):
    body = b"a" * size
    head = struct.pack("!I", len(body))
    timings = []
    with socket.create_connection((host, port)) as sock:
        for _ in range(rounds):
            start = time.perf_counter()
            if split:
                sock.sendall(head + body)  # expect: NGL001
            else:
                sock.sendall(head + body)
            reply = sock.recv(4 + size)
            if not reply:
                break
            timings.append(time.perf_counter() - start)
    timings.sort()
    return timings[len(timings) // 2] if timings else None


if __name__ == "__main__":
    print("split ", run("127.0.0.1", 9100, 20, 100, split=True))
    print("joined", run("127.0.0.1", 9100, 20, 100, split=False))
