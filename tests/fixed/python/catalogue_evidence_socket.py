# A connection made by a function imported from the socket module: the module's
# name is what tells the byte scan that this file makes connections.
from socket import create_connection  # catalogue: evidence_words.socket


def ask(host, head, body):
    c = create_connection((host, 7000))
    c.send(head + body)  # expect: NGL001
    return c.recv(100)
