# makefile('wb', buffering=0) returns a raw, unbuffered writer: every write is its
# own send, so header and body written apart and then a read stall like two sends.
import socket
import struct


def put(host, port, key, value):
    sock = socket.create_connection((host, port))
    wfile = sock.makefile("wb", buffering=0)  # catalogue: wrappers.makefile
    rfile = sock.makefile("rb")
    # catalogue: stream_writes.write
    wfile.write(struct.pack("!HI", len(key), len(value)) + key + value)  # expect: NGL001
    ack = rfile.read(1)  # catalogue: stream_reads.read
    rfile.close()
    wfile.close()
    sock.close()
    return ack == b"\x06"


if __name__ == "__main__":
    put("127.0.0.1", 7000, b"greeting", b"hello")
