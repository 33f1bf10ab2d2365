# The same makefile('rwb') stream flushed after each write: two sends, and the
# second flush is held by Nagle until the first is ACKed, before readline.
import socket


def cache_set(host, port, key, value):
    sock = socket.create_connection((host, port))
    stream = sock.makefile("rwb")
    try:
        stream.write(b"set %s 0 0 %d\r\n" % (key, len(value)))
        stream.write(value + b"\r\n")
        stream.flush()  # expect: NGL001
        return stream.readline().rstrip(b"\r\n") == b"STORED"  # catalogue: stream_reads.readline
    finally:
        stream.close()
        sock.close()


if __name__ == "__main__":
    cache_set("127.0.0.1", 11211, b"greeting", b"hello")
