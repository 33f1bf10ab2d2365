# A generator's send() resumes it: no byte goes on any wire, however often it
# is sent to before the socket's reply is read. The socket's own split, next
# to it, still stalls.
# fixture-confidence: low
import socket


def checksums():
    total = 0
    while True:
        chunk = yield total
        total += sum(chunk)


class Upload:
    def digests(self):
        seen = []
        while True:
            seen.append((yield len(seen)))


def upload(host, head, body):
    sock = socket.create_connection((host, 80))
    summer = checksums()
    next(summer)
    summer.send(head)
    summer.send(body)
    sock.sendall(head + body)
    return sock.recv(100)


def upload_split(host, head, body):
    sock = socket.create_connection((host, 80))
    summer = checksums()
    next(summer)
    summer.send(head)
    summer.send(body)
    sock.sendall(head + body)  # expect: NGL001
    return sock.recv(100)


class Client(Upload):
    def send_all(self, host, head, body):
        sock = socket.create_connection((host, 80))
        log = self.digests()
        next(log)
        log.send(head)
        log.send(body)
        sock.sendall(head + body)
        return sock.recv(100)
