# The look-alike: TCP_NODELAY is set on a local probe connection that is closed, and the
# field is given another connection, on which Nagle stays on: its split still stalls.
import socket


class Client:
    def connect(self, host, port):
        probe = socket.create_connection((host, port))
        probe.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # expect: NGL002
        probe.sendall(b"PING\n")
        probe.recv(16)
        probe.close()
        self.sock = socket.create_connection((host, port))

    def get(self, key):
        self.sock.sendall(b"GET " + (key + b"\n"))  # expect: NGL001
        return self.sock.recv(4096)
