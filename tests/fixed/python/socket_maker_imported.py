# The socket module's makers, imported under other names (or from gevent's
# socket module, a drop-in copy), make TCP connections: the request split in
# two before the read waits for the delayed ACK. The twin of
# websocket_messages.py, where the same name comes from another package.
from socket import create_connection as connect_tcp  # catalogue: socket_modules.socket

import gevent.socket as green


def ask(host, head, body):
    c = connect_tcp((host, 7000))
    c.send(head + body)  # expect: NGL001
    return c.recv(100)


def ask_green(host, head, body):
    c = green.create_connection((host, 7000))
    c.send(head + body)  # expect: NGL001
    return c.recv(100)
