"""What the checks see of a function: its body without the statements that
cannot change what the dataflow knows (`Project.live_body`)."""

from __future__ import annotations

from pathlib import Path

from nagle_lint import runner
from nagle_lint.config import Settings
from nagle_lint.languages import frontend
from nagle_lint.model import Break, Call, If, Loop, Return, Send
from nagle_lint.project import Project

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

C_SOURCE = b"""
#include <sys/socket.h>
static void note(int n) { printf("%d", n); }
static void put(int fd, const char *b, int n) { send(fd, b, n, 0); }
void serve(int fd, int n) {
    send(fd, "z", 1, 0);
    if (n > 1) { note(n); log_it(n); }
    while (n-- > 0) { note(n); }
    for (;;) { note(n); }
}
void client(int fd, int n) {
    if (n) { note(n); } else { put(fd, "x", 1); }
    while (n) { if (n == 3) break; note(n); }
    if (n > 9) return;
    send(fd, "y", 1, 0);
}
"""


def _functions():
    model = frontend("c").lower("t.c", C_SOURCE)
    project = Project([model])
    return project, {fn.qualname: fn for fn in model.functions}


def test_calls_that_reach_no_event_are_left_out_with_what_holds_only_them():
    project, fns = _functions()
    serve = project.live_body(fns["serve"])
    # The if and the while hold only calls without effects; the infinite
    # loop stays (nothing after it runs), emptied.
    assert [type(s) for s in serve] == [Send, Loop] and serve[1].infinite and serve[1].body == ()
    assert len(fns["serve"].body) == 4
    client = project.live_body(fns["client"])
    kinds = [type(s) for s in client]
    assert kinds == [If, Loop, If, Send]
    branches = client[0].branches
    assert branches[0] == () and isinstance(branches[1][0], Call) and branches[1][0].callee == "put"
    assert isinstance(client[1].body[0], If) and isinstance(client[1].body[0].branches[0][0], Break)
    assert len(client[1].body) == 1  # the call to note() is gone, the break kept
    assert isinstance(client[2].branches[0][0], Return)
    # The function itself is untouched, and a body with nothing to leave out is the same object.
    assert len(fns["client"].body[1].body) == 2 and isinstance(fns["client"].body[1].body[1], Call)
    assert project.live_body(fns["put"]) is fns["put"].body


def test_leaving_them_out_changes_no_finding(monkeypatch):
    """Every fixture, at every confidence, gives the same findings with the
    whole bodies followed."""
    settings = Settings(min_confidence="low")
    pruned = runner.run([str(FIXTURES)], settings, jobs=1)
    monkeypatch.setattr(Project, "live_body", lambda self, fn: fn.body)
    whole = runner.run([str(FIXTURES)], settings, jobs=1)
    assert len(pruned.findings) > 100
    assert pruned.findings == whole.findings


ALTERNATIVES = b"""\
#include <unistd.h>
#ifdef FAST
static void put(int fd, const char *h) { write(fd, h, 4); }
#else
static void put(int fd, const char *h) { (void) fd; (void) h; }
#endif
int call(int fd, const char *h, char *r) { put(fd, h); put(fd, h); return (int) read(fd, r, 4); }
"""


def test_a_c_function_defined_twice_in_its_file_is_an_unknown_call():
    """Two definitions of one name in a C file are alternatives (one is
    compiled): a call to it is as unknown as one to a name two files define.
    In Python the later definition is the one the module ends with."""
    model = frontend("c").lower("alternatives.c", ALTERNATIVES)
    caller = next(fn for fn in model.functions if fn.qualname == "call")
    assert [fn.qualname for fn in model.functions].count("put") == 2
    assert Project([model]).resolve(caller, "put") is None

    source = b"import socket\ndef put(s):\n    s.send(b'x')\ndef put(s):\n    pass\ndef call(s):\n    put(s)\n    s.recv(1)\n"
    model = frontend("python").lower("alternatives.py", source)
    caller = next(fn for fn in model.functions if fn.qualname == "call")
    assert Project([model]).resolve(caller, "put").site.line == 4


CHAIN_A = b"""
#include <sys/socket.h>
static void last(int fd) { send(fd, "x", 1, 0); }
static void middle(int fd) { last(fd); }
void first(int fd) { middle(fd); note(fd); }
void quiet(int n) { note(n); }
"""

CHAIN_B = b"""
#include <sys/socket.h>
void caller(int fd) { first(fd); recv(fd, 0, 0, 0); helper(fd); }
void helper(int fd) { }
"""


def _seen(project):
    """What a project answers, by name (the same whichever objects it holds)."""
    by_id = {id(fn): f"{fn.path}:{fn.qualname}" for fn in project.functions()}
    wanted = project.wanted()
    return (sorted(by_id[i] for i in project.effective), sorted(by_id[i] for i in project.sending),
            sorted(by_id[id(fn)] for fn in project.functions() if not project.is_entry(fn)),
            sorted(wanted.needed), sorted(wanted.effects), sorted(wanted.again),
            {n: sorted(project.definers("c", n)) for n in ("first", "helper", "nowhere")})


def test_a_project_built_on_an_earlier_one_answers_as_a_fresh_one():
    a = frontend("c").lower("a.c", CHAIN_A)
    b = frontend("c").lower("b.c", CHAIN_B, names=frozenset({"first"}))  # as a later round lowers it
    earlier = Project([a])
    assert _seen(earlier) == _seen(Project([a]))
    later = Project([a, b], earlier)
    assert _seen(later) == _seen(Project([a, b]))
    effective = _seen(later)[0]
    # Effects reach up a chain of calls, across files; a function calling
    # nothing that sends has none.
    assert {"a.c:last", "a.c:middle", "a.c:first", "b.c:caller"} <= set(effective)
    assert "a.c:quiet" not in effective
    # A file lowered again (a new model at the same path) replaces the old one.
    again = frontend("c").lower("a.c", CHAIN_A.replace(b"middle(fd); note(fd);", b"note(fd);"))
    replaced = Project([again, b], later)
    assert _seen(replaced) == _seen(Project([again, b]))
    assert "a.c:first" not in _seen(replaced)[0]


def test_a_call_of_a_parameter_s_name_calls_the_value_passed():
    """`def run(send_both, s): send_both(s)` calls what was passed, not the
    file's send_both: the call resolves to no function, starts no finding,
    and no other file is asked for a definition of it."""
    from nagle_lint.lint import raw_findings
    from nagle_lint.prepared import Prepared

    cases = {
        "t.py": b"import socket\ndef send_both(s):\n    s.sendall(b'a')\n    s.sendall(b'b')\n"
                b"def run(send_both, s):\n    send_both(s)\n    s.recv(1)\n"
                b"def later(handler, s):\n    handler(s)\n    s.recv(1)\n",
        "t.c": b"#include <sys/socket.h>\nvoid send_both(int fd) { send(fd, \"a\", 1, 0); send(fd, \"b\", 1, 0); }\n"
               b"void run(void (*send_both)(int), int fd) { char c; send_both(fd); recv(fd, &c, 1, 0); }\n"
               b"void later(void (*handler)(int), int fd) { char c; handler(fd); recv(fd, &c, 1, 0); }\n",
    }
    for path, data in cases.items():
        model = frontend("python" if path.endswith(".py") else "c").lower(path, data)
        project = Project([model])
        fns = {fn.qualname: fn for fn in model.functions}
        assert project.resolve(fns["run"], "send_both") is None
        assert project.resolve(fns["later"], "send_both") is fns["send_both"]  # where it is no parameter
        assert "handler" not in project.wanted().needed
        found = raw_findings([Prepared(path, model, {}, 0)], project, {"NGL001"})
        assert [f.line for f in found if f.rule == "NGL001"] == [], path


def test_every_overload_of_a_called_name_is_called():
    """A call is resolved by its name alone, so a call of an overloaded Java
    method may reach any of them: none is an entry its callers never read after."""
    src = b"""import java.net.Socket;
class A {
    void run(Socket s) throws Exception { f(s); }
    void f(Socket s) throws Exception { s.getOutputStream().write(1); s.getOutputStream().write(2); }
    void f(Socket s, int n) throws Exception { s.getOutputStream().write(n); }
}
"""
    model = frontend("java").lower("A.java", src)
    project = Project([model])
    assert [fn.qualname for fn in model.functions if project.is_entry(fn)] == ["A.run"]


def test_a_name_called_in_another_language_is_not_a_call():
    """A Python script's main() says nothing of a C main."""
    c = frontend("c").lower("m.c", b"""#include <sys/socket.h>
int main(void) { int fd = socket(AF_INET, SOCK_STREAM, 0); send(fd, "a", 1, 0); send(fd, "b", 1, 0); return 0; }
""")
    py = frontend("python").lower("x.py", b"""import socket
def main():
    s = socket.socket()
    s.send(b"x")
main()
""")
    project = Project([c, py])
    assert [fn.qualname for fn in c.functions if project.is_entry(fn)] == ["main"]
    assert "main" not in [fn.qualname for fn in py.functions if project.is_entry(fn)]


def test_a_static_call_reaches_a_method_defined_once_that_sends_itself():
    """Later rounds look for calls of the methods that send by their
    qualified name too (`Replies.header(`, a static method: no object is
    made); not of an overloaded name (the call may be another overload's), nor
    of a method that only calls one that sends."""
    src = b"""import java.net.Socket;
class Replies {
    static void header(Socket s) throws Exception { s.getOutputStream().write(1); }
    static void body(Socket s) throws Exception { s.getOutputStream().write(2); }
    static void body(Socket s, int n) throws Exception { s.getOutputStream().write(n); }
    static void both(Socket s) throws Exception { header(s); body(s); }
}
"""
    model = frontend("java").lower("Replies.java", src)
    effects = Project([model]).wanted().effects
    assert "Replies" in effects and "Replies.header" in effects
    assert "Replies.body" not in effects and "Replies.both" not in effects
