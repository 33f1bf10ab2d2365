# A TCP connection named like an SSH channel is still a TCP connection: the
# two sends before the read split one message. The twin of ssh_channel.py.
import socket


def ask(host, line, more):
    chan = socket.create_connection((host, 22))
    chan.sendall(line + more)  # expect: NGL001
    return chan.recv(1024)
