# Nothing in this module creates the connection; the parameter is only named like
# a socket and used with sendall/recv. Medium confidence, still reported.


def request(sock, verb, key, payload):
    sock.sendall(f"{verb} {key} {len(payload)}\n".encode() + payload)  # expect: NGL001
    status = sock.recv(64).decode().strip()
    if not status.startswith("200"):
        raise RuntimeError(f"{verb} {key}: {status}")
    return status


def delete(sock, key):
    sock.sendall(f"DEL {key} 0\n".encode())
    return sock.recv(64).decode().strip()


def rename(sock, old, new):
    request(sock, "MOVE", old, new.encode())
