# Live: the server answers each request with a header send and a body send, while the client waits for
# the whole response. Nagle holds the body until the client ACKs the header, which the client delays
# (~40 ms on Linux): every round trip stalls. Fixed twin: server_joined.py.
import socket
import struct
import sys
import threading
import time

TIMEOUT_S = 3.0
WARMUP = 2  # a new Linux connection ACKs at once at first (quick-ACK): skip those round trips
REQUEST = struct.pack("!4sI", b"GET ", 0)
REPLY_BODY = b"y" * 200
REPLY_HEAD = struct.pack("!4sI", b"OK  ", len(REPLY_BODY))
REPLY_SIZE = len(REPLY_HEAD) + len(REPLY_BODY)


def serve(listener):
    """Server thread: read each whole request, answer with a header send and a body send."""
    conn, _ = listener.accept()
    conn.settimeout(TIMEOUT_S)
    with conn:
        while True:
            request = b""
            while len(request) < len(REQUEST):
                chunk = conn.recv(len(REQUEST) - len(request))
                if not chunk:
                    return
                request += chunk
            conn.sendall(REPLY_HEAD + REPLY_BODY)  # expect: NGL001


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
    samples = []
    for i in range(WARMUP + rounds):
        start = time.perf_counter()
        sock.sendall(REQUEST)
        reply = b""
        while len(reply) < REPLY_SIZE:
            chunk = sock.recv(REPLY_SIZE - len(reply))
            if not chunk:
                raise ConnectionError("server closed the connection")
            reply += chunk
        if i >= WARMUP:
            samples.append((time.perf_counter() - start) * 1000.0)
    report(samples, sock)
    sock.close()
    listener.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
