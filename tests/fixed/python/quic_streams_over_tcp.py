# The shape of quic_streams.py on an asyncio TCP stream: the two writes go out
# as two segments before the read (asyncio's transports turn TCP_NODELAY on,
# so this one is a split Nagle does not hold, hence no NGL001), and the same
# message written to a raw socket stalls.
import asyncio
import socket


async def ask(host, head, body):
    reader, writer = await asyncio.open_connection(host, 4433)
    writer.write(head)
    writer.write(body)
    return await reader.read()


def ask_raw(host, head, body):
    sock = socket.create_connection((host, 4433))
    sock.sendall(head + body)  # expect: NGL001
    return sock.recv(4096)
