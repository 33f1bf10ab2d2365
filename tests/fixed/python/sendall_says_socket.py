# Nothing in this file says what `broker` is, and nothing is imported. But only
# one kind of object has a sendall() method, so the connection is medium-sure
# and the split is reported. (The file deliberately avoids that kind's name.)


def publish(broker, topic, body):
    # catalogue: socket_only.sendall
    broker.sendall(b"PUB " + topic.encode() + b" " + str(len(body)).encode() + b"\r\n" + (body + b"\r\n"))  # expect: NGL001
    return broker.recv(64).startswith(b"+OK")
