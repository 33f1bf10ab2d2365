# The reads of a stream over a socket (makefile('rb'), asyncio's StreamReader)
# wait for the peer: split writes before any of them stall (on asyncio's streams,
# where TCP_NODELAY is on, they cost packets: NGL006). fixture-select: NGL006
import asyncio
import socket


def peeked(sock, head, body):
    reader = sock.makefile("rb")
    sock.send(head + body)  # expect: NGL001
    return reader.peek(1)  # catalogue: stream_reads.peek


def read_once(sock, head, body):
    reader = sock.makefile("rb")
    sock.send(head + body)  # expect: NGL001
    return reader.read1(4096)  # catalogue: stream_reads.read1


def read_into(sock, head, body, buf):
    reader = sock.makefile("rb")
    sock.send(head + body)  # expect: NGL001
    return reader.readinto(buf)  # catalogue: stream_reads.readinto


def read_lines(sock, head, body):
    reader = sock.makefile("rb")
    sock.send(head + body)  # expect: NGL001
    return reader.readlines()  # catalogue: stream_reads.readlines


async def exactly(host, port, head, body):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(head)
    writer.write(body)  # expect: NGL006
    return await reader.readexactly(4)  # catalogue: stream_reads.readexactly


async def until(host, port, head, body):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(head)
    writer.write(body)  # expect: NGL006
    return await reader.readuntil(b"\n")  # catalogue: stream_reads.readuntil
