# The socket module's maker imported in a parenthesized list that opens with a
# comment makes a TCP connection: the request split in two before the read waits
# for the delayed ACK.
from socket import (  # the plain blocking client
    create_connection as connect_tcp,
)


def ask(host, head, body):
    c = connect_tcp((host, 7000))
    c.send(head + body)  # expect: NGL001
    return c.recv(100)
