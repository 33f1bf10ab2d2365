# A refusal sent on a path that ends the process: exiting closes the connection, which
# sends what it held, and nothing after the exit runs, so the refusal and the greeting of
# the path that goes on are never one message in two pieces. A path that goes on with two
# pieces still is.
import os
import sys
from sys import exit as leave


def login(sock, user):
    if not user:
        sock.sendall(b"530 no user\r\n")
        sys.exit(1)  # catalogue: exits.sys.exit
    sock.sendall(b"331 password?\r\n")
    return sock.recv(100)


def child_greets(sock, name):
    if not name:
        sock.sendall(b"500 no name\r\n")
        os._exit(2)  # catalogue: exits.os._exit
    sock.sendall(b"220 ready\r\n")
    return sock.recv(100)


def checked_greets(sock, state):
    if state < 0:
        sock.sendall(b"421 broken\r\n")
        os.abort()  # catalogue: exits.os.abort
    sock.sendall(b"220 ready\r\n")
    return sock.recv(100)


def script_greets(sock, version):
    if version != 2:
        sock.sendall(b"505 version\r\n")
        exit(3)  # catalogue: exits.exit
    sock.sendall(b"220 ready\r\n")
    return sock.recv(100)


def interactive_greets(sock, version):
    if version != 2:
        sock.sendall(b"505 version\r\n")
        quit(3)  # catalogue: exits.quit
    sock.sendall(b"220 ready\r\n")
    return sock.recv(100)


def imported_greets(sock, name):
    if len(name) > 64:
        sock.sendall(b"501 too long\r\n")
        leave(2)  # catalogue: exits.exit
    sock.sendall(b"220 ready\r\n")
    return sock.recv(100)


def hello(sock, name):
    if not name:
        sock.sendall(b"500 no name\r\n")
        sys.exit(1)
    sock.sendall(b"HELO " + name)  # expect: NGL001
    return sock.recv(100)
