"""The byte scan's fast searches find what the plain regexes they stand for
find: calls of named functions found from their literal anchors, call sites
read from the reversed file, declarations and Python definitions found from
their keywords, unions of patterns searched one by one (and the functions they match in),
and Java's socket
types found without a regex."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from nagle_lint.languages import java_catalogue, python_scan, scanner
from nagle_lint.languages.java_scan import FileEvents
from nagle_lint.model import lineage
from nagle_lint.languages.scan import AnyOf, FunctionTexts, PlainCalls, _may_match, called_keys, name_key, names_of, socket_like

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for p in (ROOT / "fixtures").rglob("*") if p.suffix in (".c", ".h", ".java", ".py"))

NAMES = rb"write|send|sendto|writev|accept4?|recv\w*|SSL_\w+|fputs|fputc|putc"
WORDS = (b"TCP_NODELAY", b"MSG_MORE")


def reference_calls(names: bytes, words, data: bytes, pos: int = 0, endpos: int | None = None) -> list[tuple[int, int]]:
    """What PlainCalls stands for: a regex over the file, a match kept when the
    byte before it is not part of a name, a `.` or a `->`."""
    pattern = re.compile(b"(?:" + names + rb")\s*\(" + b"".join(b"|" + re.escape(w) for w in words))
    end = len(data) if endpos is None else endpos
    return [m.span() for m in pattern.finditer(data, pos, end)
            if m.start() == 0 or data[m.start() - 1] not in b"_.>" + bytes(range(48, 58)) + bytes(range(65, 91)) + bytes(range(97, 123))]


def spans(found) -> list[tuple[int, int]]:
    return [m.span() for m in found]


def agree(calls: PlainCalls, data: bytes, pos: int = 0, endpos: int | None = None) -> None:
    """finditer gives every match the regex gives, and search the first."""
    expected = reference_calls(NAMES, WORDS, data, pos, endpos)
    assert spans(calls.finditer(data, pos, endpos)) == expected, (pos, endpos)
    first = calls.search(data, pos, endpos)
    assert (first.span() if first is not None else None) == (expected[0] if expected else None), (pos, endpos)


EDGES = [
    b"write(fd, buf, n);",
    b"fputc(c, f); putc(c, f);",
    b"ngx_write(fd); c->send(x); s.write(y); fwrite (a); writev(\n);",
    b"sendto  (s); accept4(s); accept(s); accepted(s); recvfrom(s, b);",
    b"SSL_write(ssl); SSL_(x); xSSL_read(y); putc(c); fputc(c); fputs(s);",
    b"int x = TCP_NODELAY; XTCP_NODELAY; .MSG_MORE; flags|MSG_MORE",
    b"writewrite(x); write write(y); (write)(z); write",
    b"",
]


@pytest.mark.parametrize("data", EDGES)
def test_plain_calls_match_the_regex_they_stand_for(data: bytes):
    agree(PlainCalls(NAMES, WORDS), data)


def test_plain_calls_respect_a_window():
    data = b"a(); write(x); ngx_write(y); send(z); fputc(c);"
    calls = PlainCalls(NAMES, WORDS)
    for pos in range(len(data) + 1):
        for end in range(pos, len(data) + 1):
            agree(calls, data, pos, end)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_plain_calls_on_every_fixture(path: Path):
    data = path.read_bytes()
    agree(PlainCalls(NAMES, WORDS), data)


TOKENS = st.sampled_from([b"write", b"send", b"to", b"v", b"4", b"accept", b"recv", b"SSL_", b"x", b"_", b".", b"->",
                          b"(", b")", b" ", b"\n", b"TCP_NODELAY", b"MSG_MORE", b"fputc", b"putc", b";"])


@settings(max_examples=300, deadline=None)
@given(st.lists(TOKENS, max_size=30).map(b"".join))
def test_plain_calls_on_generated_text(data: bytes):
    agree(PlainCalls(NAMES, WORDS), data)


def test_a_name_without_a_literal_start_is_refused():
    with pytest.raises(ValueError):
        PlainCalls(rb"\w+send")


PARTS = (rb"\.(?:send\w*|close)\s*\(", rb"socket", rb"TCP_")


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_any_of_finds_the_first_match_of_the_alternation(path: Path):
    data = path.read_bytes()
    union = re.compile(b"|".join(PARTS))
    found = AnyOf(*PARTS).search(data)
    expected = union.search(data)
    assert (found and found.start()) == (expected and expected.start())


def functions_matching(spans, data: bytes, pattern) -> set[str]:
    """What FunctionTexts.matching stands for: the pattern searched within
    each function's range, and within the ranges between them for the
    module-level pseudo-function."""
    found = {q for q, a, b in spans if not q.startswith("<") and pattern.search(data, a, b)}
    inner = sorted((a, b) for q, a, b in spans if not q.startswith("<"))
    gaps, at = [], 0
    for a, b in inner:
        gaps.append((at, a))
        at = max(at, b)
    gaps.append((at, len(data)))
    if any(pattern.search(data, a, b) for a, b in gaps if b > a):
        found |= {q for q, _, _ in spans if q.startswith("<")}
    return found


EVENT_PATTERNS = [scanner("python").events, scanner("python").stream_events, scanner("python").sends_or_options,
                  scanner("java").sends_or_options, scanner("c").events, scanner("c").sends_or_options]


@pytest.mark.parametrize("path", [p for p in SOURCES if p.suffix == ".py"], ids=lambda p: p.name)
def test_functions_matching_a_union_on_every_python_fixture(path: Path):
    from nagle_lint.languages import frontend

    data = path.read_bytes()
    fe = frontend("python")
    spans = [(q, n.start_byte, n.end_byte) for q, n, _ in fe.functions(fe.parse(data).root_node)]
    for pattern in EVENT_PATTERNS:
        assert FunctionTexts(spans, data).matching(pattern) == functions_matching(spans, data, pattern)


MATCH_TOKENS = st.sampled_from([b".send(", b".sendall", b".close", b" (", b"(", b".", b"socket", b"sock", b"et",
                                b"TCP_", b"TCP", b"_", b".write(", b"x", b"\n", b" ", b"TCP_NODELAY", b"write(", b"->",
                                b"send", b"2", b"class", b"\t"])


@st.composite
def text_and_spans(draw):
    data = b"".join(draw(st.lists(MATCH_TOKENS, max_size=40)))
    bound = st.integers(0, len(data))
    # A name may have several ranges, as a C function has in the branches of an `#if`.
    spans = [(f"f{draw(st.integers(0, 3))}", *sorted(draw(st.tuples(bound, bound)))) for _ in range(draw(st.integers(0, 5)))]
    if draw(st.booleans()):
        spans.append(("<module>", 0, len(data)))
    return data, spans


@settings(max_examples=400, deadline=None)
@given(text_and_spans())
@example((b"class write(", [("<module>", 0, 12)]))  # a class statement defines `write`: no call of it
def test_functions_matching_a_union_on_generated_text(case):
    data, spans = case
    for pattern in EVENT_PATTERNS:
        assert FunctionTexts(spans, data).matching(pattern) == functions_matching(spans, data, pattern)


# What the Java catalogue makes evidence of: a socket's type (or a type's
# name ending in one), the calls that give a socket's streams or make one,
# and a framework's connection object in a file of that framework.
JAVA_EVIDENCE = re.compile(rb"\b(?:[A-Z][A-Za-z0-9_]*)?(?:Socket|SocketChannel)\b|getOutputStream|getInputStream|"
                           rb"createSocket")
JAVA_FRAMEWORK = re.compile(rb"\b(?:Channel|ChannelHandlerContext|ChannelOutboundInvoker)\b")


@pytest.mark.parametrize("text", [
    b"Socket s;", b"SSLSocket s;", b"mySocket.close();", b"SocketFactory f;", b"FileOutputStream out;",
    b"x.getOutputStream()", b"x.getInputStream()", b"f.createSocket(h, p)", b"SocketChannel ch;",
    b"ServerSocketChannel server;", b"import java.nio.channels.*; Channel c;", b"DecodeChannel d;", b"Channel c;",
    b"import io.netty.channel.*; Channel c;", b"import org.jboss.netty.channel.*; Channel c;",
    b"import io.netty.channel.*; ChannelFuture f;", b"import io.netty.channel.*; ChannelHandlerContext ctx;",
    b"ChannelHandlerContext ctx;", b"_Socket s;", b"A1Socket s;", b"socket", b"",
])
def test_java_evidence_is_the_regex_it_stands_for(text: bytes):
    framework = b"io.netty" in text or b"org.jboss.netty" in text
    assert scanner("java").has_evidence(text) == bool(
        JAVA_EVIDENCE.search(text) or framework and JAVA_FRAMEWORK.search(text))


def test_java_evidence_follows_the_catalogue():
    """A socket type, a factory's method or a framework's type added to the
    catalogue is evidence with no word of the byte scan's own."""
    from dataclasses import replace

    from nagle_lint.languages.java_catalogue import JAVA
    from nagle_lint.languages.java_scan import JavaScanner

    def scan(cat):
        return type("Scanner", (JavaScanner,), {"catalogue": cat})()

    text = b"import com.example.net.*; Tunnel t = factory.openTunnel(h); KcpSession s;"
    assert not scan(JAVA).has_evidence(text)
    assert scan(replace(JAVA, socket_types=JAVA.socket_types | {"KcpSession"})).has_evidence(text)
    assert scan(replace(JAVA, tcp_makers=JAVA.tcp_makers | {"openTunnel"})).has_evidence(text)
    assert scan(replace(JAVA, frameworks={**JAVA.frameworks, "com.example.net": "send"},
                        framework_types=JAVA.framework_types | {"Tunnel"})).has_evidence(text)


def test_c_wrappers_known_by_name_follow_the_catalogue():
    """A word added to `named_sends` lets a file calling a wrapper named for it
    (defined in no linted file) through the byte scan, with no word of the
    scan's own; the same file without a stream socket's type does not pass."""
    from dataclasses import replace

    from nagle_lint.languages.c_catalogue import C
    from nagle_lint.languages.c_scan import CScanner

    def scan(cat):
        return type("Scanner", (CScanner,), {"catalogue": cat})()

    text = b"int fd = socket(AF_INET, SOCK_STREAM, 0);\nvoid f(int fd) { net_xmit(fd, buf, n); }\n"
    assert not scan(C).sends_in(text)
    assert scan(replace(C, named_sends=C.named_sends | {"xmit"})).sends_in(text)
    assert not scan(replace(C, named_sends=C.named_sends | {"xmit"})).sends_in(text.replace(b"SOCK_STREAM", b"SOCK_DGRAM"))


def reference_call_sites(data: bytes, classes: bool = True) -> list[tuple[int, int, str]]:
    """What `called_keys` and `FunctionTexts.calls` stand for: a name, then
    blanks, then a parenthesis (start, end, name); and (`classes`) where the
    name follows a dot and the word before it starts with a capital (a class a
    static method is called on: `Messages.send(`), both, dotted, from its start."""
    sites = []
    for m in re.finditer(rb"(?<!\w)(\w+)\s*\(", data):
        if m.group(1)[:1].isdigit():
            continue
        sites.append((m.start(), m.end(), m.group(1).decode()))
        receiver = re.search(rb"(?<!\w)\w+\Z", data[:m.start() - 1]) if data[m.start() - 1:m.start()] == b"." else None
        if classes and receiver is not None and receiver.group()[:1].isupper() and receiver.group()[:1].isascii():
            sites.append((receiver.start(), m.end(), f"{receiver.group().decode()}.{m.group(1).decode()}"))
    return sites


def reference_function_calls(spans, data: bytes, bare: bool = False) -> dict[str, set[str]]:
    """The names each function calls: the call sites its range holds whole
    (`bare`: only those not of a member, `x.name(` or `p->name(`); of a name
    given several ranges, those of every one; of the module-level
    pseudo-function, those no function's range holds.  A class statement
    (`class Server(Base):`) makes no object: it is no call, where the range
    holds its `class` keyword (a function's text is all the scan reads)."""
    sites = [(a, b, name) for a, b, name in reference_call_sites(data, classes=not bare)
             if not (bare and a and data[a - 1:a] in (b".", b">"))]
    keyword = {}  # a class statement's site: where its `class` starts
    for a, _, name in sites:
        if "." not in name and (m := re.search(rb"(?<!\w)class[ \t]+\Z", data[:a])):
            keyword[a] = m.start()
    inner = [(q, a, b) for q, a, b in spans if not q.startswith("<")]
    calls: dict[str, set[str]] = {q: set() for q, _, _ in spans}
    for q, a, b in inner:
        calls[q] |= {name for start, end, name in sites if a <= start and end <= b and keyword.get(start, -1) < a}
    # In no function's range, not even in part; a class statement's name only where the module's own text
    # holds its keyword (one whose keyword starts in a function's range is read as a call, as above).
    outside = {name for start, end, name in sites
               if (start not in keyword or any(a <= keyword[start] < b for _, a, b in inner))
               and not any(a < end and start < b for _, a, b in inner)}
    for q, _, _ in spans:
        if q.startswith("<"):
            calls[q] = outside
    return calls


def assert_calls_as_referenced(spans, data: bytes):
    texts = FunctionTexts(spans, data)
    assert texts.calls == reference_function_calls(spans, data)
    assert texts._index(texts._bare) == texts._index(reference_function_calls(spans, data, bare=True))


@pytest.mark.parametrize("path", [p for p in SOURCES if p.suffix in (".c", ".h")], ids=lambda p: p.name)
def test_function_calls_on_every_c_fixture(path: Path):
    data = path.read_bytes()
    spans = scanner("c").byte_functions(data)
    assert spans is not None  # every C fixture's braces tell its functions (see test_c_functions.py)
    spans = [(q, a, b) for q, a, b, _ in spans] + [("<module>", 0, len(data))]
    assert_calls_as_referenced(spans, data)
    for pattern in (scanner("c").events, scanner("c").sends_or_options, scanner("c").send_calls):
        assert FunctionTexts(spans, data).matching(pattern) == functions_matching(spans, data, pattern)


def test_a_class_statement_is_no_call():
    """`class Server(Base):` defines the class: module-level code that only
    defines it makes none (whose constructor would then be lowered)."""
    data = b"class Server(Base):\n    def __init__(self): pass\nclass\tClient (Base): pass\nx = Client(1)\n"
    spans = [("Server.__init__", data.index(b"def"), data.index(b"class\t")), ("<module>", 0, len(data))]
    assert FunctionTexts(spans, data).calls["<module>"] == {"Client"}
    for edge in CALL_EDGES:
        assert_calls_as_referenced([("f", 0, len(edge) // 2), ("<module>", 0, len(edge))], edge)


@settings(max_examples=400, deadline=None)
@given(text_and_spans())
@example((b"class\tsock (", [("f0", 1, 12)]))  # a range that cuts the keyword: its text holds no class statement
def test_function_calls_on_generated_text(case):
    data, spans = case
    assert_calls_as_referenced(spans, data)


CALL_EDGES = [
    b"f(g(h(x)));", b"foo (\n\t(bar)  (1) 2x(y) _a1 ( x", b"((((", b"a(", b"(", b"", b"x" * 300 + b" \n(",
    b"caf\xc3\xa9(x); na\xc3\xafve_b(y)", b"class A(B):\n  x = A(1); classy(2); my_class (3); class\tC (D)",
]


CALL_TEXTS = [(p.name, p.read_bytes()) for p in SOURCES] + [(f"edge{i}", t) for i, t in enumerate(CALL_EDGES)]


@pytest.mark.parametrize("data", [t for _, t in CALL_TEXTS], ids=[n for n, _ in CALL_TEXTS])
def test_called_names_are_the_regex_they_stand_for(data: bytes):
    names = {name for _, _, name in reference_call_sites(data)}
    assert names_of(called_keys(data)) == names
    assert called_keys(data) == {name_key(n) for n in names}


DECLARATIONS = {"python": rb"\b(?:def|class)\s+([A-Za-z_][A-Za-z_0-9]*)",
                "java": rb"\b(?:class|interface|record|enum)\s+([A-Za-z_][A-Za-z_0-9]*)"}


@pytest.mark.parametrize("language,text", [
    ("python", b"@dataclass\nclass Stats:\n    def total(self):\n        pass\nasync def go(): subclass = 1\n"),
    ("python", b"undef x\nxdef y\ndef\tz(): pass\nclass_ A\nclass 1a"),
    ("java", b"@Subclass\nclass A {} interface B {} record C() {} enum D {} subinterface E"),
])
def test_declarations_hold_what_the_regex_finds(language: str, text: bytes):
    """And only names after a keyword that ends a longer word besides (a later round checks them)."""
    declared = scanner(language).declared(text)
    expected = {n.decode() for n in re.findall(DECLARATIONS[language], text)}
    assert expected <= declared
    for extra in declared - expected:
        assert re.search(rb"\w(?:def|class|interface|record|enum)\s+" + extra.encode() + rb"\b", text), extra


PYTHON_DEF = re.compile(rb"(?m)^([ \t\f]*)(?:(?:async[ \t]+)?def|class)[ \t]")
DEF_TOKENS = st.sampled_from([b"def", b"class", b"async", b" ", b"\t", b"\f", b"\n", b"\r\n", b"un", b"x", b":", b"#"])


def reference_definitions(data: bytes) -> list[tuple[int, int]]:
    """(start of its line, indentation width) of every line that starts a
    definition: a regex anchored at each line's start."""
    return [(m.start(), python_scan._width(m.group(1))) for m in PYTHON_DEF.finditer(data)]


def reference_with_events(data: bytes, names) -> set[str]:
    """What `with_events` stands for: each definition of a name, to the next
    definition indented no deeper, from every definition of the file; a
    class also where one of its base classes (of the file, at any depth) has one."""
    defs, events, eventful, seen = reference_definitions(data), scanner("python").events_in(data), set(), set()
    for i, (line, width) in enumerate(defs):
        name = re.match(rb"[ \t\f]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)", data[line:])
        name = name.group(1).decode() if name else None
        seen.add(name)
        end = next((start for start, w in defs[i + 1:] if w <= width), len(data))
        if events.search(data, line, end):
            eventful.add(name)
    bases = {}
    for cls, found, _ in python_scan.class_statements(data):
        bases.setdefault(cls, found)
    worth = {n for n in names if eventful.intersection(lineage(bases, n))}
    return worth | (set(names) - seen)


@pytest.mark.parametrize("path", [p for p in SOURCES if p.suffix == ".py"], ids=lambda p: p.name)
def test_python_definitions_with_events_are_those_every_definition_gives(path: Path):
    data = path.read_bytes()
    names = {n.decode() for n in re.findall(rb"(?:def|class)\s+(\w+)", data)} | {"absent"}
    assert scanner("python").with_events(data, names) == reference_with_events(data, names)


WITH_EVENTS_TOKENS = st.sampled_from([b"def f", b"class f", b"async def f", b"def g", b"s.close()", b" ", b"\t",
                                      b"\n", b"x", b":", b"#", b"undef f", b"def ff"])


@settings(max_examples=300, deadline=None)
@given(st.lists(WITH_EVENTS_TOKENS, max_size=30).map(b"".join))
def test_python_definitions_with_events_on_generated_text(data: bytes):
    assert scanner("python").with_events(data, {"f", "g"}) == reference_with_events(data, {"f", "g"})


def reference_spans(data: bytes, positions) -> list[tuple[int, int]]:
    """What `_enclosing_spans` stands for: the spans every definition of the file gives."""
    defs = reference_definitions(data)
    spans = []
    for pos in positions:
        line = data.rfind(b"\n", 0, pos) + 1
        indent = python_scan._width(re.match(rb"[ \t\f]*", data[line:pos]).group())
        above = [(start, width) for start, width in defs if start <= pos and width < indent]
        if not above:
            spans.append((0, len(data)))
            continue
        start, width = above[-1]
        below = [s for s, w in defs if s > start and w <= width]
        spans.append((start, below[0] if below else len(data)))
    return spans


@pytest.mark.parametrize("path", [p for p in SOURCES if p.suffix == ".py"], ids=lambda p: p.name)
def test_python_enclosing_spans_are_those_the_definitions_give(path: Path):
    data = path.read_bytes()
    positions = [m.start() for m in re.finditer(rb"\.\w+\s*\(", data)]
    assert list(python_scan._enclosing_spans(data, positions)) == reference_spans(data, positions)


@settings(max_examples=300, deadline=None)
@given(st.lists(DEF_TOKENS, max_size=40).map(b"".join))
def test_python_enclosing_spans_on_generated_text(data: bytes):
    # Every position a call can be at: not in a line's indentation (where a
    # form feed, which sets the width back to 0, can make the line's own
    # definition look like one around it).
    positions = [pos for pos in range(len(data) + 1) if data[data.rfind(b"\n", 0, pos) + 1:pos].strip(b" \t\f")]
    assert list(python_scan._enclosing_spans(data, positions)) == reference_spans(data, positions)


def _lowered_as_sends():
    from nagle_lint.languages.c_catalogue import C
    from nagle_lint.languages.java_catalogue import JAVA
    from nagle_lint.languages.python_catalogue import PYTHON

    yield from (("c", f"{n}(fd, b, n);".encode()) for n in sorted(C.all_sends | C.stream_writes))
    yield from (("java", f"out.{n}(b);".encode()) for n in sorted(JAVA.stream_writes))
    yield from (("python", f"s.{n}(b)".encode()) for n in sorted(PYTHON.all_sends | PYTHON.stream_writes))


@pytest.mark.parametrize("language, call", list(_lowered_as_sends()), ids=lambda v: v if isinstance(v, str) else v.decode())
def test_the_byte_scan_sees_every_call_the_frontend_lowers_as_a_send(language: str, call: bytes):
    """What a later round rests on: a file without a match of `send_calls` sends nothing itself."""
    assert scanner(language).send_calls.search(call)


@pytest.mark.parametrize("language, text, may", [
    # A C or Python file sets TCP_NODELAY only by calling setsockopt() with it.
    ("c", b"case CURLOPT_TCP_NODELAY: s->tcp_nodelay = on; break;\n", False),
    ("c", b"setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));\n", True),
    ("python", b'on = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)\n', False),
    ("python", b"s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)\n", True),
    # Java has more ways (setTcpNoDelay, setOption(StandardSocketOptions.TCP_NODELAY, ...)).
    ("java", b"ch.setOption(StandardSocketOptions.TCP_NODELAY, true);\n", True),
    # Python: accept() is evidence as a call, not as a word; a method only sockets have is too.
    ("python", b'"""An acceptable reply."""\ndef f(x):\n    x.send(b"a")\n', False),
    ("python", b"def f(x):\n    y, _ = x.accept()\n    y.write(b'a')\n", True),
    ("python", b"def f(x):\n    x.sendall(b'a')\n", True),
])
def test_what_lets_a_file_through_the_byte_scan(language: str, text: bytes, may: bool):
    assert scanner(language).may_find(text) is may


def may_match_agrees(data: bytes) -> int:
    """`_may_match` holds wherever its pattern matches (it may hold elsewhere):
    told from a file's names for plain calls.  The number of patterns that
    matched."""
    matched = 0
    for lang in ("python", "java", "c"):
        scan = scanner(lang)
        names = names_of(scan.facts(data)[0])
        for pattern in (scan.events, scan.events_in(data), scan.sends_or_options, scan.send_calls):
            if pattern.search(data) is not None:
                matched += 1
                assert _may_match(pattern, data, names), (lang, pattern)
    return matched


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_may_match_holds_wherever_the_pattern_matches_on_every_fixture(path: Path):
    may_match_agrees(path.read_bytes())


def test_may_match_is_told_by_the_names_of_plain_calls():
    events = scanner("c").events
    assert isinstance(events, PlainCalls)
    quiet = b"int f(struct conn *c) { return c->recv(c) + check(c); }\n"  # recv only as a member
    assert events.search(quiet) is None
    assert not _may_match(events, quiet, {"check", "f"})
    assert _may_match(events, quiet, {"check", "f", "recv"})  # the names a file calls tell, not its bytes


EVENT_TOKENS = st.sampled_from([b"recv", b"send", b"read", b"write", b"(", b")", b"{", b"}", b" ", b"\n", b"->",
                                b".", b"x", b"fd", b";", b"TCP_NODELAY", b"setsockopt", b"int ", b"def ", b":"])


@settings(max_examples=300, deadline=None)
@given(st.lists(EVENT_TOKENS, max_size=30).map(b"".join))
def test_may_match_holds_wherever_the_pattern_matches_on_generated_text(data: bytes):
    may_match_agrees(data)


@pytest.mark.parametrize("name", ["sock", "self.sock", "c->conn", "client_fd", "clientfd", "sockfd", "peerSocket",
                                  "clientSocket", "mySock", "SOCK", "CLIENT_FD", "conns[i]", "clients[i]", "ch",
                                  "this.channel", "upstream_fd", "sock2", "connfd", "sd"])
def test_a_socket_like_name_has_a_socket_word_as_a_whole_segment(name):
    assert socket_like(name)


@pytest.mark.parametrize("name", ["chunk", "change", "chan", "search", "disconnect", "batch", "match", "cache",
                                  "each", "recharge", "clientele", "peering", "remotely", "schedule", "thousands",
                                  "SOCKADDR", "psd"])
def test_a_socket_word_inside_a_longer_word_is_no_evidence(name):
    assert not socket_like(name)


JAVA_DECLARATIONS = b"""class A {
    private ByteBuf frame; private OutputStream out; private DataOutput data; private T held;
    private ByteBuf frame2; private OutputStream out2; private long size;
    void f(ByteBuf buf, Socket s, java.util.List<ByteBuf> bufs, Output... outs) {
        var v = s.getOutputStream();
"""


@pytest.mark.parametrize("call, event", [
    (b"out.write(1);", True),  # a stream
    (b"data.writeInt(1);", True),  # an interface streams have
    (b"held.write(1);", True),  # a type variable
    (b"v.write(1);", True),  # declared by what it is given
    (b"s.getOutputStream().write(1);", True),  # what a call gives
    (b"x.y.write(1);", True),  # what a field of another object holds
    (b"undeclared.write(1);", True),  # a field the class inherits
    (b"String.format(\"%d\", 1);", True),  # a class the lowering knows
    (b"bootstrap.option(ChannelOption.TCP_NODELAY, true);", True),  # an option, set on anything
    (b"buf.writeInt(1);", False),  # a class the lowering does not know
    (b"this.frame.writeByte(1);", False),
    (b"frame.writeByte(1);", False),
    (b"frame2.writeByte(1);", False),  # a name ending in a digit, as any other
    (b"out2.write(1);", True),
    (b"size.writeLong(1);", False),  # a name declared only as a primitive here
    (b"outs.write(1);", False),  # varargs of a class it does not know
    (b"Unpooled.write(1);", False),  # a static method of such a class
    (b"write(1);", False),  # a method of the class's own
    (b"buf.readableBytes();", False),  # no call the lowering knows
])
def test_java_events_are_the_calls_that_may_be_made_on_a_connection(call: bytes, event: bool):
    data = JAVA_DECLARATIONS + b"        " + call + b"\n    }\n}\n"
    java = scanner("java")
    assert (java.events_in(data).search(data, len(JAVA_DECLARATIONS)) is not None) is event
    sends = any(m.group(1).decode() in java_catalogue.JAVA.stream_writes for m in re.finditer(rb"(\w+)\(", call))
    assert (java.starts_in(data).search(data, len(JAVA_DECLARATIONS)) is not None) is (event and sends
                                                                                        or b"TCP_NODELAY" in call)


JAVA_TOKENS = st.sampled_from([b"write", b"read", b"close", b"flush", b"rewrite", b"readInt", b"(", b")", b" ",
                               b"\n", b".", b"out", b"x", b"this", b"new ", b"Stream", b"Socket", b"Writer", b";",
                               b"{", b"}", b"OutputStream ", b"ByteBuf ", b"0", b"option", b"setOption"])


@settings(max_examples=300, deadline=None)
@given(st.lists(JAVA_TOKENS, max_size=30).map(b"".join), st.integers(0, 200))
@example(b"xoption(", 8)  # a range starting inside a name: the byte before it is looked at
def test_java_events_found_backwards_are_those_the_regex_finds(data: bytes, end: int):
    java = scanner("java")
    end = min(end, len(data))
    fast, regex = FileEvents(java.events, data, java), FileEvents(java.events.pattern, data, java)
    for pos in range(end + 1):  # every start, a name's first byte among them
        assert (fast.search(data, pos, end) is None) == (regex.search(data, pos, end) is None), pos


@pytest.mark.parametrize("body, worth", [
    (b"void send(OutputStream out) throws IOException { out.write(1); }", {"Frame"}),
    (b"void fill(ByteBuf buf) { buf.writeInt(1); }", set()),  # no event: lowering it would give a stub
])
def test_a_java_file_defines_a_needed_class_worth_lowering_only_with_an_event(body: bytes, worth: set):
    data = b"final class Frame {\n    " + body + b"\n}\n"
    assert scanner("java").with_events(data, {"Frame"}) == worth


JAVA_STREAM_CLASS = b"""import java.io.*;
class Out extends FilterOutputStream {
    Out(OutputStream out) { super(out); }
    void f(byte[] b, OutputStream out) throws IOException {
        %s
    }
}
"""


@pytest.mark.parametrize("call, sends", [
    (b"out.write(b);", True),
    (b"// out.write(b);", False),  # a comment
    (b"/* out.write(b); */", False),
    (b'String s = "out.write(b);";', False),  # a literal
    (b"super.write(b);", False),  # the parent class's method, as written here
    (b'String s = String.format("%d", 1);', False),  # a static method of a class the lowering knows
    (b"System.out.println(b);", False),  # what the catalogue names no connection
    (b"StringBuilder sb = new StringBuilder(); sb.append(1);", False),
    (b"make(out).write(b);", False),  # what a method gives is no connection the lowering knows
    (b"out.getClass().getName().concat(b.toString()).format(\"\");", False),
    (b"new DataOutputStream(out).write(b);", True),  # what `new` makes may be
    (b"new StringBuilder(16).append(b);", False),  # ... where it is a stream over a connection
    (b"new Frame(out).write(b);", False),  # a class of the project's: its method, not a stream's
    (b"((OutputStream) out).write(b);", True),
    # The lowering never enters a lambda or an anonymous class's body.
    (b"Runnable r = () -> out.write(b);", False),
    (b"Runnable r = () -> { out.write(b); };", False),
    (b"run(b, x -> out.write(x), out);", False),
    (b"Runnable r = new Runnable() { public void run() { out.write(b); } };", False),
    (b"Runnable r = () -> out.flush(); out.write(b);", True),  # the lambda ends at its statement's end
    (b"run(x -> x.flush(), out.write(b));", True),  # ... or at its argument's
    (b"Runnable r = new Runnable() { public void run() { } }; out.write(b);", True),
    (b"switch (b.length) { case 1 -> out.write(b); default -> out.flush(); }", True),  # a switch's rules
    (b"switch (b.length) { case 1, 2 -> { out.write(b); } default -> { } }", True),
])
def test_the_java_scan_skips_a_file_whose_writes_the_lowering_makes_no_send_of(call: bytes, sends: bool):
    from nagle_lint.languages import frontend
    from nagle_lint.model import Send, walk

    data = JAVA_STREAM_CLASS.replace(b"%s", call)
    model = frontend("java").lower("Out.java", data)
    assert any(isinstance(ev, Send) for fn in model.functions for ev in walk(fn.body)) is sends
    # At `low`: the evidence a default run asks for besides is none here (an `OutputStream out` is low-sure).
    assert scanner("java").may_find(data, "low") is sends


NETTY_HANDLER = b"""import io.netty.channel.*;
class Handler extends ChannelInboundHandlerAdapter {
    void answer(ChannelHandlerContext ctx, Object head, Object body) {
        ctx.write(head);
        ctx.writeAndFlush(body);
    }
}
"""


def test_the_java_scan_counts_sends_on_a_netty_channel_only_where_a_rule_finds_something_there():
    """Netty's channels have TCP_NODELAY on: only a rule of `ON_NODELAY_BY_DESIGN` finds anything there."""
    from nagle_lint.languages import frontend
    from nagle_lint.model import Send, walk

    model = frontend("java").lower("Handler.java", NETTY_HANDLER)
    sends = [(fn, ev) for fn in model.functions for ev in walk(fn.body) if isinstance(ev, Send)]
    assert len(sends) == 2 and all(fn.conns[ev.conn].nodelay for fn, ev in sends)
    java = scanner("java")
    assert java.may_find(NETTY_HANDLER)
    assert not java.may_find(NETTY_HANDLER, nodelay_by_design=False)
    plain = NETTY_HANDLER.replace(b"io.netty", b"org.example")  # no framework: a channel of the project's own
    assert java.may_find(plain, "low", nodelay_by_design=False)
    assert not java.may_find(plain)  # ... which the lowering knows nothing of (no evidence)


def test_a_netty_file_is_linted_where_a_rule_finds_something_in_its_sends(tmp_path):
    from nagle_lint.config import Settings
    from nagle_lint.runner import read_file

    path = tmp_path / "Handler.java"
    path.write_bytes(NETTY_HANDLER)
    assert read_file(str(path), Settings())[0].model is None  # skipped: no rule it runs finds anything there
    assert read_file(str(path), Settings(select=("NGL006",)))[0].model is not None


@pytest.mark.parametrize("language, row, table", [
    ("c", b"{IPPROTO_TCP, TCP_NODELAY, 1},", True),
    ("python", b"(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),", True),
    # a longer name ending in an option's (libcurl's own option, given its value)
    ("c", b"curl_easy_setopt(h, CURLOPT_TCP_NODELAY, 0);", False),
    ("python", b"c.setopt(pycurl.CURLOPT_TCP_NODELAY, 0)", False),
])
def test_a_table_row_is_told_by_an_option_constant_of_its_own(language, row, table):
    """A file with what reads as an option table's row lowers every call of an option
    setter (see `Scanner.with_option_tables`); a longer name ending in one is no row."""
    scan = scanner(language)
    extended = scan.with_option_tables(scan.sends_or_options, row)
    assert (extended is not scan.sends_or_options) is table
