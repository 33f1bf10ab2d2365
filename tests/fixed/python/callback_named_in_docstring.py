"""A handler that reads a request and answers in two pieces is called again for
the next request only where it is registered: its name used as a value in code
(kept in a table of handlers), not named in a docstring, a comment or a string."""

HANDLERS = {}


def answer(conn):
    """Answers one request; see also answer_registered."""
    request = conn.recv(100)
    conn.sendall(b"+OK ")
    conn.sendall(request)


def answer_registered(conn):
    request = conn.recv(100)
    conn.sendall(b"+OK " + request)  # expect: NGL001


def describe():
    # answer is no callback: this comment and the string below only name it.
    return "answer sends its reply in two pieces"


HANDLERS["echo"] = answer_registered
