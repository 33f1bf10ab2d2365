# A setter whose option is its parameter (`set_tcp_option(sock, name, value)`) sets
# the option each call names: TCP_NODELAY named at a call hides the split sends on
# that connection (the band-aid, reported at the call), or is a note where nothing
# is split and no reason is given. Another option named there hides nothing.
import socket


def set_tcp_option(sock, name, value):
    sock.setsockopt(socket.IPPROTO_TCP, name, value)


def ask_tuned(host, port, head, body):
    sock = socket.create_connection((host, port))
    set_tcp_option(sock, socket.TCP_NODELAY, 1)  # expect: NGL002
    sock.sendall(head)
    sock.sendall(body)
    return sock.recv(4096)


def ask_with_timeout(host, port, head, body):
    sock = socket.create_connection((host, port))
    set_tcp_option(sock, socket.TCP_USER_TIMEOUT, 5000)
    sock.sendall(head + body)  # expect: NGL001
    return sock.recv(4096)


def open_quiet(host, port):
    sock = socket.create_connection((host, port))
    set_tcp_option(sock, socket.TCP_NODELAY, True)  # expect: NGL002
    return sock
