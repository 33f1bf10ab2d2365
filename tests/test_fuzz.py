"""Property-based tests: the fixtures, mutated (lines deleted, duplicated or
swapped, random bytes inserted, the file cut short), and random token soup in
each language.  For every input:

* linting one file raises nothing and reports no internal error;
* it takes a bounded time;
* it is deterministic: the same input twice gives the same findings, with or
  without a time budget (the budget parses through a callback);
* a finding survives mutations that leave its function intact: a fixture's
  top-level definition holding an `expect:` line (found with tree-sitter, and
  checked to need nothing else of its file) keeps its findings when only the
  lines around it are mutated and it still parses, unchanged and error-free.

In CI the examples are derandomized and few (a few seconds in all).  For a
long local run set NAGLE_LINT_FUZZ_EXAMPLES (e.g. 20000: random seeds,
that many examples per test); NAGLE_LINT_FUZZ_STATS=FILE appends a JSON line
of counts and the slowest input's time per test."""

from __future__ import annotations

import atexit
import json
import os
import re
import time
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from annotations import annotations
import nagle_lint.languages.base  # noqa: F401 - it raises the recursion limit on import: before hypothesis notes it
from nagle_lint.config import Settings
from nagle_lint.languages import frontend, language_of
from nagle_lint.runner import lint_file
from test_fixtures import FIXTURES, settings_for

LONG = int(os.environ.get("NAGLE_LINT_FUZZ_EXAMPLES", "0") or 0)
TIME_LIMIT = 10.0  # seconds for one fixture-sized file; a typical one takes a few milliseconds


def fuzz_settings(ci_examples: int):
    return settings(max_examples=LONG or ci_examples, derandomize=not LONG, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# --- what the runs saw (for a long run's report) ----------------------------------

STATS: dict[str, dict] = {}


def _record(test: str, seconds: float, problem: str | None, findings: int):
    s = STATS.setdefault(test, {"inputs": 0, "with_findings": 0, "problems": {}, "slowest_s": 0.0,
                                "intact": 0, "not_intact": 0})
    s["inputs"] += 1
    s["with_findings"] += bool(findings)
    s["slowest_s"] = round(max(s["slowest_s"], seconds), 4)
    if problem:
        kind = re.sub(r"\d+", "N", problem.split(";")[0])[:60]
        s["problems"][kind] = s["problems"].get(kind, 0) + 1


@atexit.register
def _dump_stats():
    out = os.environ.get("NAGLE_LINT_FUZZ_STATS")
    if out and STATS:
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"examples_per_test": LONG, "tests": STATS}) + "\n")


# --- linting one input --------------------------------------------------------------------


def lint(name: str, data: bytes, base: Settings, test: str, budget: float | None = None):
    """The findings as plain tuples; asserts the properties every input must have."""
    chosen = base if budget is None else Settings(**{**base.__dict__, "timeout": budget})
    start = time.monotonic()
    _, findings, problem, errors = lint_file(name, chosen, data)
    seconds = time.monotonic() - start
    assert problem is None or not problem.startswith("internal error"), problem
    assert seconds < TIME_LIMIT, f"{seconds:.1f} s"
    found = sorted((f.rule, f.site.line, f.site.col, f.site.end_line, f.site.end_col, f.message, f.confidence,
                    f.suppressed or "") for f in findings)
    return found, problem, errors, seconds


def check_input(name: str, data: bytes, base: Settings, test: str):
    first, problem, errors, seconds = lint(name, data, base, test)
    again = lint(name, data, base, test)
    assert again[:3] == (first, problem, errors), "not deterministic"
    unbudgeted = lint(name, data, base, test, budget=0)  # parsed from the bytes, not through the callback
    assert unbudgeted[:3] == (first, problem, errors), "the time budget changes the result"
    _record(test, seconds, problem, len(first))
    return first, problem


# --- mutations ------------------------------------------------------------------------------

FIXTURE_FILES = [p for p in FIXTURES if p.suffix in (".py", ".java", ".c", ".h")]

INTERESTING = [
    b"(", b")", b"{", b"}", b"[", b"]", b'"', b"'", b'"""', b"/*", b"*/", b"//", b"#", b"\\", b":", b";", b",",
    b"\t", b"\r", b"\r\n", b"\n", b"\0", b"\xff", b"\xe2\x82", b"\xef\xbb\xbf", "\U0001f600".encode(),
    "中文".encode(), b"if x:", b"else", b"while (1)", b"for (;;)", b"try:", b"#if 0", b"#endif", b"#define X(",
    b"nagle-lint: ignore[NGL001] -- ", b"nagle-lint: ignore", b"TCP_NODELAY", b"TCP_CORK", b"MSG_MORE",
    b"sock.sendall(b'x')", b"send(fd, b, 1, 0);", b"out.write(b);", b"recv(fd, r, 1, 0);", b"return",
    b"class X", b"def f(", b"void f(", b"lambda", b"@", b"->", b"::", b"\\\n", b" " * 40, b"\t" * 12,
]

OPS = ["delete", "duplicate", "swap", "insert", "insert", "truncate"]


def _insertion(draw) -> bytes:
    return draw(st.one_of(st.sampled_from(INTERESTING), st.binary(min_size=1, max_size=12),
                          st.text(min_size=1, max_size=8).map(lambda t: t.encode("utf-8", "surrogatepass"))))


def mutate_lines(draw, lines: list[bytes], may_touch=lambda line: True, truncate: bool = True) -> list[bytes]:
    """One mutation of `lines`, touching only lines for which `may_touch` holds."""
    op = draw(st.sampled_from(OPS if truncate else OPS[:-1]))
    free = [i for i, line in enumerate(lines) if may_touch(line)]
    if op == "truncate":
        joined = b"\n".join(lines)
        return joined[:draw(st.integers(0, len(joined)))].split(b"\n")
    if not free:
        return lines + [_insertion(draw)] if op == "insert" else lines
    i = draw(st.sampled_from(free))
    out = list(lines)
    if op == "delete":
        del out[i]
    elif op == "duplicate":
        out.insert(draw(st.integers(0, len(out))), out[i])
    elif op == "swap":
        j = draw(st.sampled_from(free))
        out[i], out[j] = out[j], out[i]
    else:  # insert bytes into a line
        k = draw(st.integers(0, len(out[i])))
        out[i] = out[i][:k] + _insertion(draw) + out[i][k:]
        out = b"\n".join(out).split(b"\n")
    return out


@st.composite
def mutated_fixture(draw):
    path = draw(st.sampled_from(FIXTURE_FILES))
    lines = path.read_bytes().split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        lines = mutate_lines(draw, lines)
    return path, b"\n".join(lines)


@fuzz_settings(150)
@given(mutated_fixture())
def test_mutated_fixtures(case):
    path, data = case
    check_input(path.name, data, settings_for(path.read_text(encoding="utf-8", errors="replace")), "mutated")


# --- findings survive mutations around their function -----------------------------------------

PROTECTED = (b"import ", b"from ", b"#include", b"package ")


@lru_cache(maxsize=None)
def units() -> tuple:
    """(path, first line, last line, the unit's bytes, its expected (line, rule) set) for every
    top-level definition holding an `expect:` line that is found with nothing else of its
    file but the imports (the rest blanked)."""
    found = []
    for path in FIXTURE_FILES:
        want = annotations(path)["expect"]
        if not want:
            continue
        data = path.read_bytes()
        lines = data.split(b"\n")
        tree = frontend(language_of(str(path))).parse(data)
        for node in tree.root_node.children:
            first, last = node.start_point[0] + 1, node.end_point[0] + 1
            mine = frozenset((line, rule) for line, rule in want if first <= line <= last)
            if not mine or node.start_point[1] != 0 or node.has_error:
                continue
            if data[node.end_byte:].split(b"\n", 1)[0].strip():
                continue  # something else follows on its last line
            if _called_elsewhere(node, data):
                continue  # judged where it is called too (a NODELAY wrapper): a mutation may cut a caller off
            alone = b"\n".join(line if first <= i <= last or line.lstrip().startswith(PROTECTED) else b""
                               for i, line in enumerate(lines, start=1))
            base = settings_for(data.decode("utf-8", "replace"))
            _, got, _, _ = lint_file(str(path), base, alone)
            if mine <= {(f.site.line, f.rule) for f in got}:
                found.append((path, first, last, data[node.start_byte:node.end_byte], mine))
    return tuple(found)


def _called_elsewhere(node, data: bytes) -> bool:
    """Whether the function `node` defines is called outside it in the file."""
    target = node.child_by_field_name("definition") or node  # a decorated definition's
    name = target.child_by_field_name("name") if target.type != "function_definition" or \
        target.child_by_field_name("name") is not None else None
    declarator = target.child_by_field_name("declarator")
    while name is None and declarator is not None:  # C: int *f(int a) -> f
        name = declarator if declarator.type == "identifier" else None
        declarator = declarator.child_by_field_name("declarator")
    if name is None:
        return False
    rest = data[:node.start_byte] + b"\n" + data[node.end_byte:]
    return re.search(rb"\b" + re.escape(name.text) + rb"\s*\(", rest) is not None


def test_most_positive_fixtures_have_a_self_contained_unit():
    """The preservation property is not vacuous."""
    assert len(units()) >= 60
    assert {language_of(str(u[0])) for u in units()} == {"python", "java", "c"}


@st.composite
def mutated_around_a_unit(draw):
    path, first, last, text, want = draw(st.sampled_from(units()))
    lines = path.read_bytes().split(b"\n")
    before, body, after = lines[:first - 1], lines[first - 1:last], lines[last:]
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()) and before:
            before = mutate_lines(draw, before, lambda line: not line.lstrip().startswith(PROTECTED), truncate=False)
        else:
            after = mutate_lines(draw, after, lambda line: not line.lstrip().startswith(PROTECTED))
    head = b"\n".join(before) + b"\n" if before else b""
    return path, text, want, head, head + b"\n".join(body) + (b"\n" + b"\n".join(after) if after else b""), first


def intact(path: Path, data: bytes, head: bytes, text: bytes) -> bool:
    """The unit is still one top-level definition, unchanged and free of errors."""
    tree = frontend(language_of(str(path))).parse(data)
    return any(n.start_byte == len(head) and n.end_byte - n.start_byte == len(text) and not n.has_error
               and data[n.start_byte:n.end_byte] == text for n in tree.root_node.children)


@fuzz_settings(150)
@given(mutated_around_a_unit())
def test_findings_survive_mutations_around_their_function(case):
    path, text, want, head, data, first = case
    base = settings_for(path.read_text(encoding="utf-8", errors="replace"))
    found, problem = check_input(path.name, data, base, "preserved")
    keep = intact(path, data, head, text) and not (problem and problem.endswith("skipped"))
    STATS["preserved"]["intact" if keep else "not_intact"] += 1
    if not keep:
        return  # the mutation reached into the unit (an unclosed string or comment before it), or made
        # the file one that is not linted at all (a NUL byte near the start: binary)
    shift = head.count(b"\n") - (first - 1)
    got = {(line, rule) for rule, line, *_ in found}
    missing = {(line + shift, rule) for line, rule in want} - got
    assert not missing, f"{path.name}: lost {sorted(missing)} (shift {shift})"


# --- token soup ---------------------------------------------------------------------------------

COMMON_TOKENS = ["(", ")", "{", "}", "[", "]", ";", ",", ".", "=", "==", "+", "-", "*", "/", "&", "|", "!",
                 "<", ">", "?", ":", "0", "1", "4096", "\"x\"", "'y'", "\n", "\n", "\t", " ", "    ",
                 "sock", "conn", "fd", "out", "s", "client", "buf", "head", "body", "x", "\\", "😀", "\0"]
TOKENS = {
    "python": COMMON_TOKENS + [
        "def", "class", "if", "elif", "else", "while", "for", "in", "try", "except", "finally", "with", "as",
        "return", "break", "continue", "lambda", "async", "await", "import", "socket", "from", "self", "match",
        "case", "sock.sendall(", "sock.send(", "sock.recv(", "sock.makefile('wb')", ".flush()", ".write(",
        "socket.create_connection((h, p))", "socket.socket()", "setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)",
        "socket.TCP_CORK", "socket.MSG_MORE", "sendmsg([", "b'", "f'{", '"""', "#", "# nagle-lint: ignore -- why",
        "    " * 3, "@", "yield", "global", "nonlocal"],
    "java": COMMON_TOKENS + [
        "class", "interface", "void", "int", "byte[]", "public", "static", "new", "if", "else", "while", "for",
        "do", "switch", "case", "default", "try", "catch", "finally", "return", "break", "continue", "throws",
        "Socket", "ServerSocket", "OutputStream", "BufferedOutputStream", "DataOutputStream", "PrintWriter",
        "s.getOutputStream()", "s.getInputStream()", "out.write(", "out.flush()", "in.read(", "setTcpNoDelay(true)",
        "StandardSocketOptions.TCP_NODELAY", "ch.write(", "ByteBuffer.wrap(", "this", "/*", "*/", "//",
        "// nagle-lint: ignore[NGL002] -- why", "@Override", "->", "::", "var", "<", ">", "<T>", "record"],
    "c": COMMON_TOKENS + [
        "int", "char", "void", "const", "struct", "static", "if", "else", "while", "for", "do", "switch", "case",
        "default", "return", "break", "continue", "goto", "sizeof", "#include <sys/socket.h>", "#define", "#if 0",
        "#ifdef X", "#else", "#endif", "socket(AF_INET, SOCK_STREAM, 0)", "accept(", "send(", "write(", "recv(",
        "read(", "writev(", "sendmsg(", "setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one)", "TCP_CORK",
        "MSG_MORE", "fdopen(", "fflush(", "fprintf(", "->", "&", "*", "/*", "*/", "//",
        "/* nagle-lint: ignore[NGL001] -- why */", "epoll_wait(", "SSL_write("],
}


@st.composite
def soup(draw, language: str):
    words = draw(st.lists(st.sampled_from(TOKENS[language]), min_size=0, max_size=300))
    seps = draw(st.lists(st.sampled_from(["", " ", " ", "\n"]), min_size=len(words), max_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps)).encode("utf-8", "surrogatepass")


@pytest.mark.parametrize("language, name", [("python", "soup.py"), ("java", "Soup.java"), ("c", "soup.c")])
def test_token_soup(language, name):
    @fuzz_settings(60)
    @given(soup(language))
    def run(data):
        check_input(name, data, Settings(select=("NGL",), min_confidence="low"), f"soup-{language}")

    run()


# --- random programs: well-formed enough to reach the checks ----------------------------------

STATEMENTS = {
    "python": ["sock.sendall(a)", "sock.send(b)", "sock.sendall(a + b)", "sock.recv(10)", "data = sock.recv(4096)",
               "sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)",
               "sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)",
               "sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 0)", "sock.send(a, socket.MSG_MORE)",
               "sock.sendmsg([a, b])", "f = sock.makefile('wb')", "f.write(a)", "f.flush()",
               "sock.shutdown(socket.SHUT_WR)", "sock.close()", "helper(sock)", "sock = socket.create_connection((h, p))",
               "conn, addr = server.accept()", "conn.sendall(a)", "conn.recv(1)", "return", "break", "continue",
               "x = 1", "sock.sendall(bytes([c]))", "# nagle-lint: ignore[NGL001] -- the peer answers at once"],
    "java": ["out.write(a);", "out.write(b);", "out.flush();", "in.read();", "s.setTcpNoDelay(true);",
             "out = new BufferedOutputStream(s.getOutputStream());", "out = s.getOutputStream();",
             "in = s.getInputStream();", "s.shutdownOutput();", "s.close();", "helper(s);", "s = new Socket(h, p);",
             "s = server.accept();", "ch.write(new ByteBuffer[] {x, y});", "ch.write(x);", "return;", "break;",
             "continue;", "int x = 1;", "out.write(c);", "// nagle-lint: ignore[NGL001] -- the peer answers at once"],
    "c": ["send(fd, a, n, 0);", "send(fd, b, m, 0);", "write(fd, a, n);", "recv(fd, r, 4, 0);", "read(fd, r, 4);",
          "setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);",
          "setsockopt(fd, IPPROTO_TCP, TCP_CORK, &one, sizeof one);",
          "setsockopt(fd, IPPROTO_TCP, TCP_CORK, &zero, sizeof zero);", "send(fd, a, n, MSG_MORE);",
          "writev(fd, iov, 2);", "fd = socket(AF_INET, SOCK_STREAM, 0);", "fd = accept(lfd, NULL, NULL);",
          "shutdown(fd, SHUT_WR);", "close(fd);", "helper(fd);", "fp = fdopen(fd, \"w\");", "fprintf(fp, \"%s\", a);",
          "fflush(fp);", "return 0;", "break;", "continue;", "x = 1;", "send(fd, &c, 1, 0);",
          "/* nagle-lint: ignore[NGL001] -- the peer answers at once */"],
}
BLOCKS = {
    "python": ["if x:", "while x:", "for c in data:", "try:", "with lock:"],
    "java": ["if (x) {", "while (x) {", "for (int i = 0; i < n; i++) {", "try {", "synchronized (this) {"],
    "c": ["if (x) {", "while (x) {", "for (i = 0; i < n; i++) {", "do {", "switch (x) { case 1:"],
}
CLOSE = {"python": {}, "java": {"try {": "} finally { x(); }"},
         "c": {"do {": "} while (x);", "switch (x) { case 1:": "break; }"}}


@st.composite
def program(draw, language: str):
    def block(depth: int, indent: int) -> list[str]:
        out = []
        for _ in range(draw(st.integers(1 if depth else 2, 6))):
            pad = " " * (4 * indent)
            if depth < 4 and draw(st.integers(0, 4)) == 0:
                opener = draw(st.sampled_from(BLOCKS[language]))
                out.append(pad + opener)
                out += block(depth + 1, indent + 1)
                if language == "python":
                    if opener == "try:":
                        out += [pad + "except OSError:", pad + "    pass"]
                else:
                    out.append(pad + CLOSE[language].get(opener, "}"))
            else:
                out.append(pad + draw(st.sampled_from(STATEMENTS[language])))
        return out

    functions = []
    for i in range(draw(st.integers(1, 3))):
        body = block(0, 1)
        if language == "python":
            functions.append(f"def f{i}(sock, a, b):\n" + "\n".join(body))
        elif language == "java":
            functions.append(f"    void f{i}(Socket s, byte[] a, byte[] b) throws Exception {{\n"
                             + "\n".join("    " + line for line in body) + "\n    }")
        else:
            functions.append(f"int f{i}(int fd, const char *a, const char *b)\n{{\n" + "\n".join(body) + "\n}")
    if language == "python":
        return ("import socket\n\n\n" + "\n\n\n".join(functions) + "\n").encode()
    if language == "java":
        return ("import java.io.*;\nimport java.net.*;\n\nclass P {\n" + "\n\n".join(functions) + "\n}\n").encode()
    return ("#include <sys/socket.h>\n#include <netinet/tcp.h>\n\n" + "\n\n".join(functions) + "\n").encode()


@pytest.mark.parametrize("language, name", [("python", "prog.py"), ("java", "P.java"), ("c", "prog.c")])
def test_random_programs(language, name):
    @fuzz_settings(60)
    @given(program(language))
    def run(data):
        found, problem = check_input(name, data, Settings(select=("NGL",), min_confidence="low"), f"program-{language}")
        assert problem is None, problem

    run()
