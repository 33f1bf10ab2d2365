# TCP_NODELAY turned on, when the connection is made, for a member of a parameter
# (`conn.sock`) applies in the module's other functions that name that member of
# their parameter: their split sends do not stall, which makes the option the
# band-aid of that split. A member the option is not set on still stalls.
import socket


def connect(conn, host, port):
    conn.sock = socket.create_connection((host, port))
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # expect: NGL002
    conn.ctl = socket.create_connection((host, port + 1))


def ask(conn, head, body):
    conn.sock.sendall(head)
    conn.sock.sendall(body)
    return conn.sock.recv(4096)


def control(conn, head, body):
    conn.ctl.sendall(head + body)  # expect: NGL001
    return conn.ctl.recv(4096)
