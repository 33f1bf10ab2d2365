# Connections kept in module globals, made once at import: the functions that
# use them see what they were made as. The TCP one splits a request before its
# reply is read; the datagram one sends two datagrams, which Nagle never holds.
import socket

CONTROL = socket.create_connection(("192.0.2.7", 7000))
STATS = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)


def ask(head, body):
    CONTROL.send(head + body)  # expect: NGL001
    return CONTROL.recv(4096)


def report(name, value):
    STATS.sendall(name)
    STATS.sendall(value)
    return STATS.recv(512)
