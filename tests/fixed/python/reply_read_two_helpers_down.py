# The reply is read two helpers down: ask calls _status, which calls _line_from, the only
# function with the recv. The read still follows the split send; and is_ready, which reads
# through the same helpers but sends nothing, starts no finding.
import socket


def _line_from(sock):
    return sock.recv(256)


def _status(sock):
    line = _line_from(sock)
    return line.startswith(b"+"), line[1:]


def is_ready(sock):
    return _status(sock)


def ask(host, verb, key):
    sock = socket.create_connection((host, 6380))
    sock.sendall(verb + key)  # expect: NGL001
    return _status(sock)
