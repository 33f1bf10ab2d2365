# A TLS socket wrapped without its handshake: nothing is read between the two
# writes (the handshake happens on the first one), so they split one message.
import socket
import ssl


def request(host, head, body):
    ctx = ssl.create_default_context()
    sock = socket.create_connection((host, 443))
    tls = ctx.wrap_socket(sock, server_hostname=host, do_handshake_on_connect=False)
    tls.sendall(head + body)  # expect: NGL001
    return tls.recv(512)
