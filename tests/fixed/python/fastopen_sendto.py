# TCP Fast Open: the first request leaves with the SYN, through sendto() given the server's
# address and MSG_FASTOPEN, on a stream socket. With that flag the address is no sign of a
# datagram socket, and the next request, in two pieces before its answer is read, is split.
# Without it (a datagram socket's sendto), nothing on the socket is TCP.
# fixture-confidence: low
import socket


def fast_open_request(make, server, head, body):
    sock = make()
    sock.sendto(head, socket.MSG_FASTOPEN, server)  # catalogue: stream_flags.MSG_FASTOPEN
    sock.recv(100)
    sock.sendall(head + body)  # expect: NGL001
    return sock.recv(100)


def datagram_request(make, server, head, body):
    sock = make()
    sock.sendto(head, server)
    sock.recv(100)
    sock.sendall(head)
    sock.sendall(body)
    return sock.recv(100)
