# A buffered writer from sock.makefile('wb') flushed after each piece sends each
# piece on its own: the second flush is the delayed send before the reply is read.
import socket


def send_command(host, port, name, payload):
    sock = socket.create_connection((host, port))
    wfile = sock.makefile("wb")
    rfile = sock.makefile("rb")
    wfile.write(f"{name} {len(payload)}\r\n".encode())
    # catalogue: flushes.flush
    wfile.write(payload)
    wfile.flush()  # expect: NGL001
    reply = rfile.read(3)
    rfile.close()
    wfile.close()
    sock.close()
    return reply == b"+OK"


if __name__ == "__main__":
    send_command("127.0.0.1", 6400, "UPLOAD", b"\x00" * 64)
