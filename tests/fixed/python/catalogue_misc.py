# Calls that end, pace or hold a message: a close pushes held data out, a long
# sleep lets the ACK in, TCP_NOPUSH (BSD's TCP_CORK) holds data until released;
# writelines on an unbuffered stream is one send per call; sendfile sends. The
# paced pieces go out on an asyncio stream (TCP_NODELAY on): without the sleep
# they would be NGL006's packets. fixture-select: NGL006
import asyncio
import socket


def answer_and_hang_up(conn, head, body):
    conn.sendall(head)
    conn.sendall(body)
    conn.close()  # catalogue: closes.close


async def paced(host, port, first, second):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(first)
    await asyncio.sleep(1)  # catalogue: sleeps.asyncio.sleep
    writer.write(second)
    return await reader.readline()


def corked(sock, head, body):
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NOPUSH, 1)  # expect: NGL004  catalogue: options.TCP_NOPUSH
    sock.sendall(head)
    sock.sendall(body)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NOPUSH, 0)
    return sock.recv(100)


def lines(sock, head, body):
    out = sock.makefile("wb", buffering=0)
    out.writelines([head])  # catalogue: stream_writes.writelines
    out.write(body)  # expect: NGL001
    return sock.recv(100)


def file_after_header(sock, header, f):
    sock.sendall(header)
    sock.sendfile(f)  # expect: NGL001  catalogue: file_sends.sendfile
    return sock.recv(100)
