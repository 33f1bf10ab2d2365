# A parameter annotated as a socket is a TCP connection, whatever its name.
import socket
import ssl
from socket import socket as Socket
from ssl import SSLSocket


def plain(x: socket.socket, head, body):  # catalogue: socket_types.socket.socket
    x.send(head + body)  # expect: NGL001
    return x.recv(100)


def imported(x: socket, head, body):  # catalogue: socket_types.socket
    x.send(head + body)  # expect: NGL001
    return x.recv(100)


def tls(x: ssl.SSLSocket, head, body):  # catalogue: socket_types.ssl.SSLSocket
    x.send(head + body)  # expect: NGL001
    return x.recv(100)


def tls_imported(x: SSLSocket, head, body):  # catalogue: socket_types.SSLSocket
    x.send(head + body)  # expect: NGL001
    return x.recv(100)
