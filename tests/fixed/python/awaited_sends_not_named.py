# The twin of awaited_sends_named.py where the same object's calls are not awaited:
# a plain method call on a connection named like a socket is still a send.


def send_pipelined(control_socket):
    for _ in range(100):
        control_socket.send(b"GETINFO version")  # expect: NGL003
    for _ in range(100):
        control_socket.recv(4096)


def send_twice(control_socket, head, body):
    control_socket.send(head + body)  # expect: NGL001
    return control_socket.recv(4096)
