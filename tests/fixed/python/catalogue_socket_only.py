# Methods only a socket has make what they are called on a likely socket, even
# under a name that says nothing (`x`): its split sends are reported.


def framed(x, head, body, buf):
    x.send(head + body)  # expect: NGL001
    return x.recv_into(buf)  # catalogue: socket_only.recv_into


def framed_from(x, head, body, buf):
    x.send(head + body)  # expect: NGL001
    return x.recvfrom_into(buf)  # catalogue: socket_only.recvfrom_into


def gathered_tail(x, head, body):
    x.send(head)
    x.sendmsg([body])  # expect: NGL001  catalogue: socket_only.sendmsg
    return x.recv(100)


def streamed(x, head, body):
    reader = x.makefile("rb")  # catalogue: socket_only.makefile
    x.send(head + body)  # expect: NGL001
    return reader.readline()
