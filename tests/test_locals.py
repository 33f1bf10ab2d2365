"""A function's local variables are bound anew at every call: a connection
held in one is nothing to its callers.  The frontends say which keys are
locals (`Function.locals`), the dataflow ends them with the call, and the
project does not count what a function does on them as something its
callers see (so a file calling it is not lowered for it)."""

from __future__ import annotations

import pytest

from nagle_lint.checks.flow import analyse
from nagle_lint.languages import frontend
from nagle_lint.project import Project


def _functions(language: str, source: bytes) -> dict:
    model = frontend(language).lower("t." + {"python": "py", "c": "c", "java": "java"}[language], source)
    return {fn.qualname: fn for fn in model.functions}


LOCALS = [
    ("c", b"""#include <sys/socket.h>
int lookup_conn(int id);
int shared_conn;
void f(int fd, int id) {
    int conn = lookup_conn(id);
    static int kept;
    extern int elsewhere;
    kept = lookup_conn(id);
    send(conn, "a", 1, 0); send(fd, "b", 1, 0); send(kept, "c", 1, 0);
    send(shared_conn, "d", 1, 0); send(elsewhere, "e", 1, 0);
}
""", "f", {"conn"}),
    ("python", b"""import socket
shared = None
def f(sock, peer):
    global shared
    conn = lookup_conn(peer)
    shared = lookup_conn(peer)
    conn.sendall(b"a"); sock.sendall(b"b"); shared.sendall(b"c"); self_less.sendall(b"d")
""", "f", {"conn"}),
    ("java", b"""import java.net.Socket;
class C {
    Socket field;
    void f(Socket param, Pool pool) throws Exception {
        Socket conn = pool.take();
        conn.getOutputStream().write(1);
        param.getOutputStream().write(2);
        field.getOutputStream().write(3);
    }
}
""", "C.f", {"conn"}),
]


@pytest.mark.parametrize("language, source, name, local", LOCALS, ids=[c[0] for c in LOCALS])
def test_locals_are_the_variables_the_function_binds_itself(language, source, name, local):
    """Not a parameter, a field, a global, a C static or extern, a name a
    Python function declares global."""
    fn = _functions(language, source)[name]
    assert {k.split(".")[0] for k in fn.locals} == local


HELPER_C = b"""#include <string.h>
#include <sys/socket.h>
int lookup_conn(const char *peer);
static void notify(const char *peer, const char *line) {
    int conn = lookup_conn(peer);
    send(conn, line, strlen(line), 0);
}
static void notify_split(const char *peer, const char *line) {
    int conn = lookup_conn(peer);
    send(conn, "note: ", 6, 0);
    send(conn, line, strlen(line), 0);
}
void announce(const char *peer) { notify(peer, "a\\n"); notify(peer, "b\\n"); }
void announce_split(const char *peer) { notify_split(peer, "a\\n"); }
"""
HELPER_PY = b"""from pool import lookup_conn
def notify(peer, line):
    conn = lookup_conn(peer)
    conn.sendall(line)
def notify_split(peer, line):
    conn = lookup_conn(peer)
    conn.sendall(b"note: ")
    conn.sendall(line)
def announce(peer):
    notify(peer, b"a")
    notify(peer, b"b")
def announce_split(peer):
    notify_split(peer, b"a")
"""


@pytest.mark.parametrize("language, source", [("c", HELPER_C), ("python", HELPER_PY)])
def test_a_local_connection_ends_with_the_call_and_is_checked_at_the_callee_s_end(language, source):
    """Two calls of a helper that sends once on a connection it looks up are
    two messages, not a split one; a helper that sends twice on it and returns
    is split, reported once, in the helper."""
    model = frontend(language).lower("t." + {"python": "py", "c": "c"}[language], source)
    exits = analyse(model).split_exits
    assert {(s.first.site.line, s.second.site.line, s.first.stack) for s in exits} == \
        {({"c": 10, "python": 7}[language], {"c": 11, "python": 8}[language], ())}


def test_a_function_sending_only_on_its_locals_is_nothing_its_callers_see():
    """It is no effect another file is lowered for; one that returns the
    connection, or sends on a parameter, is."""
    source = b"""#include <sys/socket.h>
int lookup_conn(int id);
void log_line(int id) { int conn = lookup_conn(id); send(conn, "x", 1, 0); }
int opened(int id) { int conn = lookup_conn(id); send(conn, "x", 1, 0); return conn; }
void put(int fd) { send(fd, "x", 1, 0); }
void logs_twice(int id) { log_line(id); log_line(id); }
"""
    model = frontend("c").lower("t.c", source)
    project = Project([model])
    assert project.wanted().effects == {"opened", "put"}
    fns = {fn.qualname: fn for fn in model.functions}
    assert not project.has_effects(fns["log_line"]) and project.may_find(fns["log_line"])
    assert not project.may_find(fns["logs_twice"])  # a call of log_line changes nothing it knows
