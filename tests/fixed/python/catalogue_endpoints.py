# What a socket is made as decides whether Nagle applies: the families and
# types below have none (no finding), whatever type the caller asks for; IPv6
# streams and adopted descriptors do.
import socket


def bluetooth(head, body):
    s = socket.socket(socket.AF_BLUETOOTH, socket.SOCK_STREAM)  # catalogue: no_nagle_words.AF_BLUETOOTH
    s.send(head)
    s.send(body)
    return s.recv(100)


def can_bus(kind, frame_a, frame_b):
    s = socket.socket(socket.AF_CAN, kind)  # catalogue: no_nagle_words.AF_CAN
    s.send(frame_a)
    s.send(frame_b)
    return s.recv(16)


def netlink(kind, request, more):
    s = socket.socket(socket.AF_NETLINK, kind)  # catalogue: no_nagle_words.AF_NETLINK
    s.send(request)
    s.send(more)
    return s.recv(4096)


def packets(kind, frame_a, frame_b):
    s = socket.socket(socket.AF_PACKET, kind)  # catalogue: no_nagle_words.AF_PACKET
    s.send(frame_a)
    s.send(frame_b)
    return s.recv(1500)


def raw_ip(probe_a, probe_b):
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW)  # catalogue: no_nagle_words.SOCK_RAW
    s.send(probe_a)
    s.send(probe_b)
    return s.recv(1500)


def ipv6(head, body):
    s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)  # catalogue: plain_tcp_words.AF_INET6
    s.send(head + body)  # expect: NGL001
    return s.recv(100)


def adopted(fd, head, body):
    c = socket.fromfd(fd, socket.AF_INET, socket.SOCK_STREAM)  # catalogue: tcp_makers.fromfd
    c.send(head + body)  # expect: NGL001
    return c.recv(100)
