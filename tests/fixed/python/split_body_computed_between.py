# The header goes out, then the body is computed, then sent: the code between
# neither uses the connection nor changes the header, so the header can wait
# for it and leave with the body (an unsafe fix: the header is not sent any
# more when computing the body raises).
import json
import logging
import socket

log = logging.getLogger(__name__)


def put(host, port, key, record):
    sock = socket.create_connection((host, port))
    body = json.dumps(record).encode("utf-8")
    log.debug("sending %d bytes", len(body))
    sock.sendall(b"PUT " + key + b"\r\n" + body)  # expect: NGL001
    return sock.recv(2)


def stream_put(host, port, record):
    sock = socket.create_connection((host, port))
    wfile = sock.makefile("wb")
    wfile.write(b"PUT\r\n")
    body = json.dumps(record).encode("utf-8")
    wfile.write(body)
    wfile.flush()  # expect: NGL001
    return sock.recv(2)
