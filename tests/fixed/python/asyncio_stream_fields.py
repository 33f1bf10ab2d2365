# asyncio streams kept in fields: the connection's facts go with them to the other
# methods, TCP_NODELAY included (asyncio turns it on for its TCP transports), so the
# split request below costs an extra packet, not a stall: NGL006, not NGL001.
# fixture-select: NGL006
import asyncio
import socket


class Client:
    async def connect(self, host, port):
        reader, writer = await asyncio.open_connection(host, port)
        self._reader = reader
        self._writer = writer
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)

    async def auth(self, user, password):
        self._writer.write(b"AUTH " + user + b" ")
        self._writer.write(password + b"\r\n")  # expect: NGL006
        await self._writer.drain()
        return await self._reader.readline()


class PlainClient:
    def connect(self, host, port):
        self._sock = socket.create_connection((host, port))
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)

    def auth(self, user, password):
        self._sock.sendall(b"AUTH " + user + b" " + (password + b"\r\n"))  # expect: NGL001
        return self._sock.recv(1024)
