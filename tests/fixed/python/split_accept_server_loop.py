# A server answers each request with a length header and a body in two sends at the
# bottom of its loop; the next recv at the top reads on the same connection, so the
# body waits for the client's delayed ACK (the client waits for the whole answer).
import socket
import struct


def handle(request):
    return request.upper()


def serve(port):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", port))
    srv.listen()
    while True:
        conn, addr = srv.accept()  # catalogue: accepts.accept
        with conn:
            while True:
                request = conn.recv(4096)
                if not request:
                    break
                body = handle(request)
                conn.sendall(struct.pack("!I", len(body)) + body)  # expect: NGL001


if __name__ == "__main__":
    serve(8600)
