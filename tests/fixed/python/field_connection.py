# The connection is created in __init__ and kept in self.sock; the method that
# sends a command and its value apart and then reads the status is flagged.
import socket


class CacheClient:
    def __init__(self, host, port=11211):
        self.sock = socket.create_connection((host, port))

    def set(self, key, value, ttl=0):
        self.sock.sendall(f"set {key} 0 {ttl} {len(value)}\r\n".encode() + (value + b"\r\n"))  # expect: NGL001
        return self.sock.recv(64).strip() == b"STORED"

    def get(self, key):
        self.sock.sendall(f"get {key}\r\n".encode())
        return self.sock.recv(65536)

    def close(self):
        self.sock.close()


if __name__ == "__main__":
    client = CacheClient("127.0.0.1")
    client.set("motd", b"hello")
    print(client.get("motd"))
    client.close()
