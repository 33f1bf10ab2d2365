# Each way of reading a socket is a read: two sends before it split one
# message, whichever call waits for the answer.
import socket


def ask_into(sock, head, body, buf):
    sock.send(head + body)  # expect: NGL001
    return sock.recvfrom_into(buf)  # catalogue: reads.recvfrom_into


def ask_msg(sock, head, body):
    sock.send(head + body)  # expect: NGL001
    return sock.recvmsg(4096)  # catalogue: reads.recvmsg


def ask_msg_into(sock, head, body, bufs):
    sock.send(head + body)  # expect: NGL001
    return sock.recvmsg_into(bufs)  # catalogue: reads.recvmsg_into


def ask_gathered_last(sock, head, body):
    sock.send(head)
    sock.sendmsg([body])  # expect: NGL001  catalogue: gather_sends.sendmsg
    return sock.recv(4096)
