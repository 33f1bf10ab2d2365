# Arguments passed by name are bound to the callee's parameters by name: the
# connection given as `sock=` is the one the helper splits its message on, and
# a command left to its default (`noreply=True`) waits for no answer, so the
# next one is the second piece before the read.
import socket


def send_message(head, sock, body):
    sock.sendall(head + body)  # expect: NGL001


def ask(host, port, head, body):
    s = socket.create_connection((host, port))
    send_message(body=body, sock=s, head=head)
    return s.recv(4096)


class Client:
    def __init__(self, server):
        self.sock = socket.create_connection(server)

    def command(self, line, noreply=True):
        self.sock.sendall(line)
        if noreply:
            return None
        return self.sock.recv(4096)

    def touch(self, key):
        return self.command(b"touch " + key + b"\r\n")


def touch_then_get(server, key):
    client = Client(server)
    client.touch(key)
    return client.command(b"get " + key + b"\r\n", noreply=False)  # expect: NGL001
