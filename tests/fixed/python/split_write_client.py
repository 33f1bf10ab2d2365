# A client sends a length prefix and the payload in two sendall calls, then waits
# for the reply: the payload is held by Nagle until the peer's delayed ACK fires.
import json
import socket
import struct


def call(host, port, method, params):
    payload = json.dumps({"method": method, "params": params}).encode()
    sock = socket.create_connection((host, port))  # catalogue: tcp_makers.create_connection
    try:
        # catalogue: sends.sendall
        sock.sendall(struct.pack("!I", len(payload)) + payload)  # expect: NGL001
        (size,) = struct.unpack("!I", sock.recv(4))  # catalogue: reads.recv
        data = b""
        while len(data) < size:
            chunk = sock.recv(size - len(data))
            if not chunk:
                raise ConnectionError("server closed the connection")
            data += chunk
        return json.loads(data)
    finally:
        sock.close()


if __name__ == "__main__":
    print(call("127.0.0.1", 9000, "ping", []))
