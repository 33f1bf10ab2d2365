# MSG_MORE on the last piece too: the kernel waits for data that never comes
# (up to 200 ms) while the reply is awaited. Each send takes its flags at its
# own place: sendto's before the address, sendmsg's after the buffers and the
# ancillary data.
import socket

ADDRESS = ("127.0.0.1", 6000)


def request_send(sock, head, body):
    sock.send(head, socket.MSG_MORE)
    sock.send(body)  # expect: NGL004  catalogue: flags_argument.send
    return sock.recv(1024)


def request_sendall(sock, head, body):
    sock.sendall(head, socket.MSG_MORE)
    sock.sendall(body)  # expect: NGL004  catalogue: flags_argument.sendall
    return sock.recv(1024)


def request_sendto(sock, head, body):
    sock.sendto(head, socket.MSG_MORE, ADDRESS)
    sock.sendto(body, 0, ADDRESS)  # expect: NGL004  catalogue: flags_argument.sendto
    return sock.recv(1024)


def request_sendmsg(sock, head, body):
    sock.sendmsg([head], [], socket.MSG_MORE)
    sock.sendmsg([body], [])  # expect: NGL004  catalogue: flags_argument.sendmsg
    return sock.recv(1024)


def request_sendto_address_only(sock, head, body):
    # Two arguments: the second is the address, not flags; the first piece's MSG_MORE
    # is released by the second send.
    sock.sendto(head, socket.MSG_MORE, ADDRESS)
    sock.sendto(body, ADDRESS)
    return sock.recv(1024)


def main():
    sock = socket.create_connection(ADDRESS)
    for request in (request_send, request_sendall, request_sendto, request_sendmsg, request_sendto_address_only):
        request(sock, b"Q 4\n", b"ping")
    sock.close()


if __name__ == "__main__":
    main()
