# The two sends sit in a try block with except/finally; the reply is read after
# the finally. Control flow through the handlers does not join the pieces.
import logging
import time

log = logging.getLogger(__name__)


class UploadError(Exception):
    pass


def put(sock, key, blob):
    started = time.monotonic()
    try:
        sock.sendall(f"PUT {key} {len(blob)}\n".encode() + blob)  # expect: NGL001
    except OSError as exc:
        raise UploadError(key) from exc
    finally:
        log.debug("sent %s in %.3fs", key, time.monotonic() - started)
    return sock.recv(3) == b"OK\n"
