"""What a file the byte scan skipped offers a later round (`Scanner.offers`):
a call of a function that sends counts only where it can reach another
file's function, and a call resolves in its own file first."""

from __future__ import annotations

import pytest

from nagle_lint.languages import frontend, scanner
from nagle_lint.model import Call, walk
from nagle_lint.project import Project

PYTHON = {
    "defines it": (b"import socket\ndef main():\n    s = socket.create_connection(('h', 1))\n    s.recv(1)\n"
                   b"if __name__ == '__main__':\n    main()\n", set()),
    "async, defines it": (b"import socket\nasync def main():\n    s.recv(1)\nmain()\n", set()),
    "a method of that name": (b"import socket\nclass C:\n    def main(self):\n        s.recv(1)\nmain()\n", {"main"}),
    "nested in a block": (b"import socket\nif x:\n    def main():\n        s.recv(1)\nmain()\n", {"main"}),
    "only calls it": (b"import socket\nfrom tool import main\nmain()\ns.recv(1)\n", {"main"}),
    "a longer name": (b"import socket\ndef main2():\n    s.recv(1)\nmain()\n", {"main"}),
}
C = {
    "defines it": (b"#include <sys/socket.h>\nint main(void) { int fd = socket(2, 1, 0); recv(fd, 0, 0, 0); return 0; }\n"
                   b"void run(void) { main(); }\n", set()),
    "only calls it": (b"#include <sys/socket.h>\nvoid run(int fd) { main(); recv(fd, 0, 0, 0); }\n", {"main"}),
}
CASES = [("python", k, *v) for k, v in PYTHON.items()] + [("c", k, *v) for k, v in C.items()]


@pytest.mark.parametrize("lang, case, data, called", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_call_to_a_function_the_file_defines_offers_nothing(lang, case, data, called):
    scan = scanner(lang)
    assert not scan.may_find(data)  # a file the byte scan skips
    _, _, found = scan.offers(data, frozenset(), frozenset({"main"}), scan.facts(data))
    assert found == called


@pytest.mark.parametrize("lang, data", [("python", PYTHON["defines it"][0]), ("python", PYTHON["async, defines it"][0]),
                                        ("c", C["defines it"][0])])
def test_what_that_rests_on_such_a_call_resolves_to_the_file_s_own_function(lang, data):
    """Even where another linted file's `main` sends."""
    other = {"python": b"def main(s):\n    s.send(b'a')\n    s.send(b'b')\n",
             "c": b"#include <sys/socket.h>\nvoid main(int fd) { send(fd, \"a\", 1, 0); }\n"}[lang]
    ext = {"python": "py", "c": "c"}[lang]
    here = frontend(lang).lower(f"here.{ext}", data, frozenset({"main"}), own=False)
    there = frontend(lang).lower(f"there/other.{ext}", other)
    project = Project([here, there])
    callers = [fn for fn in here.functions if any(c.callee == "main" for c in project.facts(fn).calls)]
    assert callers
    for fn in callers:
        assert project.resolve(fn, "main").path == f"here.{ext}"


class _Crossing:
    """Workers whose every output crosses a process boundary (pickled), as a forked worker's does."""

    def map(self, work, items, *extra, **_):
        import pickle

        return pickle.loads(pickle.dumps(work((items, *extra))))


@pytest.mark.parametrize("shared", [None, "forked", "crossing"])
@pytest.mark.parametrize("kept", [False, True])
@pytest.mark.parametrize("few", [True, False])
def test_a_later_round_finds_the_same_offers_with_few_needed_names_or_many(tmp_path, few, kept, shared):
    """With few needed names, each is looked for before a file's facts are
    worked out; with many, the facts are worked out at once: the offers are
    the same, and the same again where the facts an earlier round worked out
    are kept (`kept`) for the next, and where forked workers share the files
    (`shared`: the facts they work out come back)."""
    from nagle_lint import runner
    from nagle_lint.languages.scan import FEW_NAMES
    from nagle_lint.project import Wanted

    talking = tmp_path / "talking.py"
    talking.write_bytes(b"import socket\ndef serve(s):\n    s.recv(1)\n    report(s)\n")
    quiet = tmp_path / "quiet.py"
    quiet.write_bytes(b"def parse(text):\n    return text.split()\ndef factory():\n    return parse('a b')\n")
    more = frozenset() if few else frozenset(f"need_{i}" for i in range(FEW_NAMES + 1))
    paths = [str(talking), str(quiet)]
    for i in range(12 if shared else 0):  # enough files for several chunks
        other = tmp_path / f"other_{i}.py"
        other.write_bytes(b"def helper():\n    return 1\n")
        paths.append(str(other))
    facts: dict = {}
    workers = {"forked": runner._Workers(2), "crossing": _Crossing()}.get(shared)

    def offers(needed, effects):
        wanted = Wanted(frozenset(needed) | more, frozenset(effects))
        return {o.path: (o.defined, o.called) for o in runner._offers(paths, wanted, facts if kept else {}, workers)}

    assert offers({"connect_to"}, {"send_all"}) == {}
    if kept and not few:  # every file's facts worked out, wherever it was looked at
        assert set(facts) == set(paths)
    assert offers({"connect_to"}, {"send_all", "report"}) == {str(talking): (set(), {"report"})}
    assert offers({"connect_to", "factory"}, {"send_all"}) == {str(quiet): ({"factory"}, set())}


WORTH = {
    # A class another file needs, without any event in its text: lowered, it would be stubs only.
    "no event": (b"class Factory:\n    def build(self):\n        return Thing()\n\ndef other(s):\n    s.close()\n", set()),
    "an event in a method": (b"class Factory:\n    def build(self, s):\n        s.close()\n        return Thing()\n", {"Factory"}),
    "an event in a nested function": (b"def Factory():\n    def inner(s):\n        s.shutdown(2)\n    return inner\n",
                                      {"Factory"}),
    # The file names a function that sends: a function calling it is lowered, and may call the definition.
    "the file names a function that sends": (b"class Factory:\n    pass\n\ndef go(s):\n    send_all(s)\n", {"Factory"}),
    # Module-level code after the class counts with it (the bytes do not tell where a class ends).
    "an event after it": (b"class Factory:\n    pass\nsock.close()\n", {"Factory"}),
}


C_WORTH = {
    "no event": (b"int Factory(int fd) { return check(fd) ? 0 : 1; }\n", set()),
    "an event of its own": (b"int Factory(int fd) { char c; return recv(fd, &c, 1, 0); }\n", {"Factory"}),
    "an event in another function": (b"int Factory(int fd) { return fd; }\n"
                                     b"int other(int fd) { char c; return recv(fd, &c, 1, 0); }\n", set()),
    "an event's name called as a member": (b"int Factory(struct c *c) { return c->recv(c); }\n", set()),
    "an option set": (b"int Factory(int fd) { int on = 1;\n"
                      b"  return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on); }\n", {"Factory"}),
    # The braces do not tell the functions (a closing brace off the margin): no event in the file tells.
    "no event, functions not told": (b"int Factory(int fd) {\n  return check(fd);\n  }\n", set()),
}
WORTH_CASES = [("python", case, *WORTH[case]) for case in WORTH] + [("c", case, *C_WORTH[case]) for case in C_WORTH]


@pytest.mark.parametrize("lang, case, data, worth", WORTH_CASES, ids=[f"{c[0]}-{c[1]}" for c in WORTH_CASES])
def test_a_definition_without_events_is_not_worth_lowering(lang, case, data, worth):
    scan = scanner(lang)
    defined, found, _ = scan.offers(data, frozenset({"Factory"}), frozenset({"send_all"}), scan.facts(data))
    assert defined == {"Factory"} and found == worth
    if not worth:  # what the lowering confirms: nothing of it would be lowered
        model = frontend(lang).lower("f." + {"python": "py", "c": "c"}[lang], data, frozenset({"send_all"}),
                                     frozenset({"Factory"}), own=False)
        assert [fn.qualname for fn in model.functions if fn.body and fn.qualname != "<module>"] == []


NODELAY_HELPER = b"""#include <netinet/tcp.h>
void set_nodelay(int fd) { int on = 1; setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on); }
void send_both(int fd) { send(fd, "a", 1, 0); send(fd, "b", 1, 0); }
"""
ONLY_THE_OPTION = b"#include <sys/socket.h>\nvoid run(int fd) { set_nodelay(fd); recv(fd, 0, 0, 0); }\n"


def test_only_effects_that_set_an_option_and_send_nothing_are_option_only():
    helper = frontend("c").lower("net/helper.c", NODELAY_HELPER)
    wanted = Project([helper]).wanted()
    assert wanted.effects == {"set_nodelay", "send_both"} and wanted.option_only == {"set_nodelay"}


@pytest.mark.parametrize("data, called", [
    (ONLY_THE_OPTION, set()),
    (b"#include <sys/socket.h>\nvoid run(int fd) { set_nodelay(fd); write(fd, \"x\", 1); recv(fd, 0, 0, 0); }\n",
     {"set_nodelay"}),
    (b"#include <sys/socket.h>\nvoid run(int fd) { set_nodelay(fd); send_both(fd); recv(fd, 0, 0, 0); }\n",
     {"set_nodelay", "send_both"}),
])
def test_a_call_of_an_option_only_effect_counts_where_the_file_may_send(data, called):
    scan = scanner("c")
    _, _, found = scan.offers(data, frozenset(), frozenset({"set_nodelay", "send_both"}), scan.facts(data),
                              frozenset({"set_nodelay"}))
    assert found == called


def test_what_that_rests_on_a_file_that_only_sets_the_option_finds_nothing():
    """Lowered all the same, the file that calls the option helper and sends
    nothing has no finding of its own (the helper's file has its own)."""
    from nagle_lint.lint import raw_findings
    from nagle_lint.prepared import Prepared

    helper = frontend("c").lower("net/helper.c", NODELAY_HELPER)
    caller = frontend("c").lower("net/run.c", ONLY_THE_OPTION, frozenset({"set_nodelay", "send_both"}), own=False)
    assert any(fn.body for fn in caller.functions)  # lowered: `run` calls the helper
    project = Project([helper, caller])
    rules = {"NGL001", "NGL002", "NGL003", "NGL004", "NGL005"}
    assert raw_findings([Prepared("net/run.c", caller, {}, 0)], project, rules) == []
    assert "NGL002" in {f.rule for f in raw_findings([Prepared("net/helper.c", helper, {}, 0)], project, rules)}


# A file that calls the option helper through a chain of its own functions, and cannot send.
QUIET_CHAIN = b"""int prepare(void) { int conn = open_conn(); set_nodelay(conn); return conn; }
int start(void) { return prepare(); }
int serve(void) { int c = start(); log_line(c); return c; }
void note(void) { log_line(0); }
"""
EFFECTS, OPTION_ONLY = frozenset({"set_nodelay", "send_both"}), frozenset({"set_nodelay"})


def _bodied(model) -> set[str]:
    return {fn.qualname for fn in model.functions if fn.body}


def _project(*lowered):
    """The Project of (model, choice) pairs."""
    return Project([m for m, _ in lowered], choices={m.path: c for m, c in lowered})


def test_where_nothing_can_send_after_the_option_its_callers_are_quiet_stubs():
    model, choice = frontend("c").lower_choosing("net/run.c", QUIET_CHAIN, EFFECTS, option_only=OPTION_ONLY)
    assert _bodied(model) == set()
    assert choice.quiet_setters == {"prepare", "start", "serve"} and choice.quiet_options == {"set_nodelay"}
    assert choice.stubs >= choice.quiet_setters  # lowered when another file turns out to call one
    # Not told which effects only set an option: every caller is lowered, as each is a start.
    assert _bodied(frontend("c").lower("net/run.c", QUIET_CHAIN, EFFECTS)) == {"prepare", "start", "serve"}


def test_a_quiet_setter_another_file_needs_is_lowered_with_those_it_calls():
    model, choice = frontend("c").lower_choosing("net/run.c", QUIET_CHAIN, EFFECTS, frozenset({"start"}),
                                                 option_only=OPTION_ONLY)
    assert _bodied(model) == {"start", "prepare"} and choice.quiet_setters == {"serve"}


@pytest.mark.parametrize("more", [
    b"void flush_log(int fd) { write(fd, \"x\", 1); }\n",  # a send of its own, in any function
    b"void both(int fd) { send_both(fd); }\n",  # a call of a function that sends
])
def test_where_the_file_may_send_every_caller_of_the_option_is_lowered(more):
    model, choice = frontend("c").lower_choosing("net/run.c", QUIET_CHAIN + more, EFFECTS, option_only=OPTION_ONLY)
    assert _bodied(model) >= {"prepare", "start", "serve"} and choice.quiet_setters == frozenset()


CLIENT = b"""#include <sys/socket.h>
int ask(void) { char r[8]; int sock = prepare(); send(sock, "a", 1, 0); send(sock, "b", 1, 0); return recv(sock, r, 8, 0); }
"""


def test_quiet_setters_count_as_setting_an_option_for_the_files_that_call_them():
    helper = frontend("c").lower_choosing("net/helper.c", NODELAY_HELPER)
    quiet = frontend("c").lower_choosing("net/run.c", QUIET_CHAIN, EFFECTS, option_only=OPTION_ONLY)
    wanted = _project(helper, quiet).wanted()
    assert wanted.effects >= {"prepare", "start", "serve"} and wanted.option_only >= {"prepare", "start", "serve"}
    # Lowering it again would leave them out again: it is not.
    assert "net/run.c" not in wanted.again
    # Unless what they call now sends.
    loud = frontend("c").lower_choosing("net/helper.c",
                                        NODELAY_HELPER.replace(b"sizeof on);", b"sizeof on); send_both(fd);"))
    assert "net/run.c" in _project(loud, quiet).wanted().again


def test_a_function_another_file_calls_is_needed_where_its_file_is_lowered_again():
    """The file was lowered before any function was known to set an option
    (its functions bodiless); a lowered function of another file calls one:
    when the file is lowered again, that one is needed there."""
    helper = frontend("c").lower_choosing("net/helper.c", NODELAY_HELPER)
    first = frontend("c").lower_choosing("net/run.c", QUIET_CHAIN)
    client = frontend("c").lower_choosing("net/client.c", CLIENT)
    assert _bodied(first[0]) == set() and _bodied(client[0]) == {"ask"}
    wanted = _project(helper, first, client).wanted()
    assert "net/run.c" in wanted.again and wanted.called == {"net/run.c": frozenset({"prepare"})}
    again, choice = frontend("c").lower_choosing("net/run.c", QUIET_CHAIN, wanted.effects,
                                                 wanted.needed | wanted.called["net/run.c"],
                                                 option_only=wanted.option_only, before=first)
    assert _bodied(again) == {"prepare"} and choice.quiet_setters == {"start", "serve"}


def test_through_a_quiet_setter_the_option_still_hides_the_split(tmp_path):
    """End to end: the client's split sends are the band-aid's, through the
    file that cannot send, lowered first before the option was known."""
    from nagle_lint import runner
    from nagle_lint.config import Settings

    (tmp_path / "opts.c").write_bytes(NODELAY_HELPER + b"int open_conn(void) { return socket(AF_INET, SOCK_STREAM, 0); }\n")
    (tmp_path / "run.c").write_bytes(b"/* connections come out of prepare() with TCP_NODELAY on */\n" + QUIET_CHAIN)
    (tmp_path / "client.c").write_bytes(CLIENT)
    found = runner.run([str(tmp_path)], Settings(), jobs=1).findings
    assert [(f.rule, f.path.rsplit("/", 1)[-1], f.site.line, f.extra.get("strength")) for f in found] == \
        [("NGL002", "opts.c", 2, "band-aid")]


def test_many_functions_that_send_offer_only_where_a_file_talks_and_calls_one(tmp_path):
    """Many functions that send (the 10k corpus has a thousand): a file that
    does not talk, or talks and calls none of them, offers nothing; one that
    talks and calls one offers that call."""
    from nagle_lint import runner
    from nagle_lint.languages.scan import FEW_NAMES
    from nagle_lint.project import Wanted

    quiet = tmp_path / "quiet.py"
    quiet.write_bytes(b"def parse(text):\n    return text.split()\n")
    talking = tmp_path / "talking.py"
    talking.write_bytes(b"import socket\ndef serve(s):\n    s.recv(1)\n    report(s)\n")
    elsewhere = tmp_path / "elsewhere.py"  # talks, and calls one only through a module
    elsewhere.write_bytes(b"import socket, log\ndef serve(s):\n    s.recv(1)\n    log.report(s)\n")
    many = frozenset(f"send_{i}" for i in range(FEW_NAMES + 1)) | {"report"}
    out = runner._offers([str(quiet), str(talking), str(elsewhere)], Wanted(frozenset({"connect_to"}), many), {})
    assert [(o.path, o.called) for o in out] == [(str(talking), {"report"})]


THROUGH_ATTRIBUTES = {
    # The lowering follows a call to another file by a bare name only: `SSL.Connection(...)` is not followed.
    "through a module": (b"import socket\nfrom OpenSSL import SSL\ndef f(s):\n    c = SSL.Connection(ctx, s)\n    s.recv(1)\n",
                         set()),
    "through an object": (b"import socket\ndef f(s, pool):\n    pool.Connection(s)\n    s.recv(1)\n", set()),
    "a bare call": (b"import socket\nfrom tcp import Connection\ndef f():\n    s = socket.create_connection(('h', 1))\n"
                    b"    c = Connection(s)\n    s.recv(1)\n", {"Connection"}),
    "an object made here": (b"import socket\nclass A:\n    def __init__(self, s):\n        self.c = Connection(s)\n"
                            b"    def go(self, s):\n        self.c.write(b'x')\n        s.recv(1)\n", {"Connection"}),
}


@pytest.mark.parametrize("case", THROUGH_ATTRIBUTES)
def test_a_python_call_through_an_attribute_is_not_followed_to_another_file(case):
    data, called = THROUGH_ATTRIBUTES[case]
    scan = scanner("python")
    _, _, found = scan.offers(data, frozenset(), frozenset({"Connection"}), scan.facts(data))
    assert found == called
    # What that rests on: the lowering makes no call named after it where the offer is empty.
    model = frontend("python").lower("f.py", data, frozenset({"Connection"}), own=False)
    calls = {c.callee.split(".")[0] for fn in model.functions for c in walk(fn.body) if isinstance(c, Call)}
    assert ("Connection" in calls) == bool(called)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig", "utf-8"])
def test_a_later_round_reads_a_skipped_file_as_the_first_round_did(tmp_path, encoding):
    """A skipped file is read again as text, as the first round read it (a
    byte-order mark dropped, UTF-16 made UTF-8): a later round finds the
    function it defines whatever its encoding."""
    from nagle_lint import runner
    from nagle_lint.project import Wanted

    helper = tmp_path / "helper.c"
    helper.write_bytes("int put_all(int fd, const char *s) {\n  return fd;\n}\n".encode(encoding))
    offers = runner._offers([str(helper)], Wanted(frozenset({"put_all"}), frozenset()), {})
    assert [(path, defined) for path, defined, _, _ in offers] == [(str(helper), {"put_all"})]


# A Netty handler whose sends are all on the channel (TCP_NODELAY on, buffered until a flush), lowered
# for its StringBuilder chain, and a file the byte scan skips that makes one and reads a socket.
NETTY_HANDLER = b"""import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

class Pipe extends ChannelOutboundHandlerAdapter {
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ctx.write(describe("WRITE"));
        ctx.write(msg, promise);
    }

    static String describe(String event) {
        return new StringBuilder(event.length() + 1).append(event).append(':').toString();
    }
}
"""
MAKES_ONE_AND_READS = b"""import java.io.InputStream;
import java.net.Socket;

class Server {
    void run(Socket s) throws Exception {
        Pipe pipe = new Pipe();
        InputStream in = s.getInputStream();
        in.read();
    }
}
"""


@pytest.mark.parametrize("select, lowered", [((), {"Pipe.java"}), (("NGL006",), {"Pipe.java", "Server.java"})])
def test_sends_on_a_framework_s_nodelay_connections_start_findings_only_where_a_rule_finds_them(tmp_path, select,
                                                                                                lowered):
    """A call of a class whose sends are all on a framework's TCP_NODELAY
    connections makes a later round lower the caller only where a rule of
    `rules.ON_NODELAY_BY_DESIGN` runs on the class's file; no finding is lost."""
    from nagle_lint import runner
    from nagle_lint.config import Settings
    from nagle_lint.report import Result

    (tmp_path / "Pipe.java").write_bytes(NETTY_HANDLER)
    (tmp_path / "Server.java").write_bytes(MAKES_ONE_AND_READS)
    settings = Settings(min_confidence="low", select=select)
    files = runner.plan([str(tmp_path)], settings).files
    prepared, _ = runner.lower_all(files, settings, 1, Result([]))
    assert {path.rsplit("/", 1)[-1] for path in prepared} == lowered
    assert runner.run([str(tmp_path)], settings, jobs=1).findings == []


# A protocol of each framework, turning TCP_NODELAY on and writing on the transport the framework gives it.
TWISTED_GREETER = b"""from twisted.internet.protocol import Protocol


class Greeter(Protocol):
    def connectionMade(self):
        self.transport.setTcpNoDelay(True)
        self.transport.write(b"hello ")
        self.transport.write(b"world")

    def dataReceived(self, data):
        self.transport.write(data)
"""
ASYNCIO_GREETER = b"""import asyncio


class Greeter(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport = transport
        self.transport.write(b"hello ")

    def data_received(self, data):
        self.transport.write(data)
"""
# A Twisted protocol whose helper turns the option on to the value its caller gives: judged there.
TWISTED_GREETER_HELPER = b"""from twisted.internet.protocol import Protocol


class Greeter(Protocol):
    def connectionMade(self):
        self._nodelay(True)

    def _nodelay(self, on):
        self.transport.setTcpNoDelay(on)
"""
# Code of another file making one and calling its methods, as a test does.
GREETER_USER = b"""from greeter import Greeter


def exercise(transport):
    greeter = Greeter()
    greeter.makeConnection(transport)
    greeter.connectionMade()
    greeter.dataReceived(b"hi")
    greeter.transport.write(b"more")
    return transport.read()
"""


@pytest.mark.parametrize("source, effects", [(TWISTED_GREETER, set()),
                                             (TWISTED_GREETER_HELPER, {"Greeter", "Greeter._nodelay"}),
                                             (ASYNCIO_GREETER, {"Greeter", "Greeter.data_received"})],
                         ids=["twisted", "twisted-value-given", "asyncio"])
def test_a_protocol_s_events_on_a_transport_its_framework_holds_are_no_effects(source, effects):
    """Twisted writes what a protocol's methods write on its transport once they return, all
    together, and an option set there is judged where it is set: a caller making the protocol
    or calling its methods starts no finding from them, so no later round looks for one
    (where the option's value comes from the caller, it is judged there; asyncio's transports
    write at once: making its protocol is an effect)."""
    from nagle_lint.lint import raw_findings
    from nagle_lint.prepared import Prepared

    protocol = frontend("python").lower("greeter.py", source)
    assert Project([protocol]).wanted().effects == effects
    if not effects:  # what that rests on: lowered all the same, the caller finds nothing
        caller = frontend("python").lower("use.py", GREETER_USER, frozenset({"Greeter"}), own=False)
        assert "exercise" in _bodied(caller)
        project, rules = Project([protocol, caller]), {"NGL001", "NGL002", "NGL003", "NGL004", "NGL005"}
        assert raw_findings([Prepared("use.py", caller, {}, 0)], project, rules) == []
        assert {f.rule for f in raw_findings([Prepared("greeter.py", protocol, {}, 0)], project, rules)} == {"NGL002"}
