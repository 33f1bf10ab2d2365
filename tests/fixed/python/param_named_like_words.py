# Parameters whose names only contain a socket word (`chunk`, `change`, `chan`) say
# nothing of what they are: these objects could be generators, queues or anything
# with send() and recv(). A name is evidence only as a whole word (`conn` below).
def forward(chunk, item):
    chunk.send(item)
    chunk.send(b"\n")
    return chunk.recv()


def publish(change, item):
    change.send(item)
    change.send(b"\n")
    return change.recv()


def pipe(chan, item):
    chan.send(item)
    chan.send(b"\n")
    return chan.recv()


def request(conn, item):
    conn.send(item + b"\n")  # expect: NGL001
    return conn.recv(64)
