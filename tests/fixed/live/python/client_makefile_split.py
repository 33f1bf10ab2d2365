# Live: the client writes a request header and its body to a buffered makefile('wb') writer, flushing
# after each: two sends, then it waits for the reply. Nagle holds the body until the header is ACKed,
# and the server delays that ACK (~40 ms on Linux): every round trip stalls. Flushed once, it does not.
import socket
import struct
import sys
import threading
import time

TIMEOUT_S = 3.0
WARMUP = 2  # a new Linux connection ACKs at once at first (quick-ACK): skip those round trips
BODY = b"x" * 200
HEAD = struct.pack("!4sI", b"PUT ", len(BODY))
REQUEST_SIZE = len(HEAD) + len(BODY)
REPLY = struct.pack("!4sI", b"OK  ", 0)


def serve(listener):
    """Server thread: read each whole request, answer it with one send."""
    conn, _ = listener.accept()
    conn.settimeout(TIMEOUT_S)
    with conn:
        while True:
            request = b""
            while len(request) < REQUEST_SIZE:
                chunk = conn.recv(REQUEST_SIZE - len(request))
                if not chunk:
                    return
                request += chunk
            conn.sendall(REPLY)


def segs_out(sock):
    """tcpi_segs_out from the kernel's struct tcp_info (Linux), else None."""
    if not sys.platform.startswith("linux") or not hasattr(socket, "TCP_INFO"):
        return None
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    return struct.unpack_from("I", info, 136)[0] if len(info) >= 140 else None


def report(samples, sock):
    ms = sorted(samples)
    n = len(ms)
    median = ms[n // 2] if n % 2 else (ms[n // 2 - 1] + ms[n // 2]) / 2
    line = f"nagle-live: rounds={n} median_ms={median:.3f} p90_ms={ms[(9 * n + 9) // 10 - 1]:.3f}"
    segs = segs_out(sock)
    print(line if segs is None else f"{line} segs_out={segs}")


def main(argv):
    rounds = int(argv[1]) if len(argv) > 1 else 10
    if rounds < 1:
        raise SystemExit("rounds must be at least 1")
    listener = socket.socket()
    listener.settimeout(TIMEOUT_S)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    threading.Thread(target=serve, args=(listener,), daemon=True).start()

    sock = socket.create_connection(listener.getsockname(), timeout=TIMEOUT_S)
    wfile = sock.makefile("wb")
    samples = []
    for i in range(WARMUP + rounds):
        start = time.perf_counter()
        wfile.write(HEAD)
        wfile.write(BODY)
        wfile.flush()  # expect: NGL001
        reply = b""
        while len(reply) < len(REPLY):
            chunk = sock.recv(len(REPLY) - len(reply))
            if not chunk:
                raise ConnectionError("server closed the connection")
            reply += chunk
        if i >= WARMUP:
            samples.append((time.perf_counter() - start) * 1000.0)
    report(samples, sock)
    wfile.close()
    sock.close()
    listener.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
