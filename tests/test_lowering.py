"""Golden tests of each frontend, without any rule: the source of every case
in tests/lowering/<language>.txt is lowered into the neutral model and its
`model_dump.dump()` must equal the expected text.

The files use tree-sitter's corpus format:

    ==================
    name of the case
    ==================
    <source>
    ---
    <expected dump>

After a deliberate change (a grammar bump, a new idiom), regenerate the
expected parts with NAGLE_LINT_UPDATE_GOLDENS=1 and review the diff.
"""

from __future__ import annotations

import difflib
import os
import pickle
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from nagle_lint.languages import frontend
from nagle_lint.model import (Bind, Break, Call, ConnInfo, Continue, Flush, If, Loop, Push, Recv, Return, Send,
                              SetOption, Try, walk)
from model_dump import dump

HERE = Path(__file__).resolve().parent / "lowering"
LANGUAGES = {"python": ".py", "java": ".java", "c": ".c"}
UPDATE = os.environ.get("NAGLE_LINT_UPDATE_GOLDENS") == "1"

_RULE = re.compile(r"^={3,}$")
_DIVIDER = re.compile(r"^-{3,}$")


@dataclass
class Case:
    name: str
    source: str
    expected: str
    rule: str  # the '====' line used in the file, kept when rewriting


def parse_corpus(text: str) -> list[Case]:
    lines = text.split("\n")
    cases: list[Case] = []
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        if not (_RULE.match(lines[i]) and i + 2 < len(lines) and _RULE.match(lines[i + 2])):
            raise ValueError(f"line {i + 1}: expected a '===' header, got {lines[i]!r}")
        rule, name = lines[i], lines[i + 1].strip()
        i += 3
        start = i
        while i < len(lines) and not _DIVIDER.match(lines[i]):
            if _RULE.match(lines[i]):
                raise ValueError(f"case {name!r}: no '---' line before the next header")
            i += 1
        if i == len(lines):
            raise ValueError(f"case {name!r}: no '---' line")
        source = "\n".join(lines[start:i]).strip("\n") + "\n"
        i += 1
        start = i
        while i < len(lines) and not (_RULE.match(lines[i]) and i + 2 < len(lines) and _RULE.match(lines[i + 2])):
            i += 1
        expected = "\n".join(lines[start:i]).strip("\n")
        cases.append(Case(name, source, expected + "\n" if expected else "", rule))
    names = [c.name for c in cases]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"duplicate case names: {sorted(duplicates)}")
    return cases


def format_corpus(cases: list[Case]) -> str:
    parts = [f"{c.rule}\n{c.name}\n{c.rule}\n{c.source}---\n{c.expected}" for c in cases]
    return "\n".join(parts)


def lower(language: str, source: str) -> str:
    model = frontend(language).lower("case" + LANGUAGES[language], source.encode("utf-8"))
    return dump(model)


def _rewrite(language: str) -> None:
    path = HERE / f"{language}.txt"
    cases = parse_corpus(path.read_text(encoding="utf-8"))
    for c in cases:
        c.expected = lower(language, c.source)
    path.write_text(format_corpus(cases), encoding="utf-8")


def _cases():
    for language in LANGUAGES:
        path = HERE / f"{language}.txt"
        if UPDATE:
            _rewrite(language)
        for case in parse_corpus(path.read_text(encoding="utf-8")):
            yield pytest.param(language, case, id=f"{language}: {case.name}")


CASES = list(_cases())


@pytest.mark.parametrize("language, case", CASES)
def test_lowering(language, case):
    got = lower(language, case.source)
    if got != case.expected:
        diff = "".join(difflib.unified_diff(case.expected.splitlines(True), got.splitlines(True),
                                            "expected", "lowered"))
        pytest.fail(f"lowering of {case.name!r} ({language}) differs from tests/lowering/{language}.txt "
                    f"(NAGLE_LINT_UPDATE_GOLDENS=1 rewrites it after a deliberate change):\n{diff}", pytrace=False)


def test_models_come_back_whole_from_a_worker():
    """Workers send their models back pickled, each record as its fields'
    values: every kind of node comes back equal."""
    seen = set()
    for language, case in (p.values for p in CASES):
        model = frontend(language).lower("case" + LANGUAGES[language], case.source.encode("utf-8"))
        back = pickle.loads(pickle.dumps(model, pickle.HIGHEST_PROTOCOL))
        assert back == model and dump(back) == dump(model), case.name
        seen |= {type(s) for fn in model.functions for s in walk(fn.body)}
        seen |= {type(c) for fn in model.functions for c in fn.conns.values()}
    assert seen >= {Send, Flush, Recv, Push, SetOption, Bind, Call, If, Loop, Try, Return, Break, Continue,
                    ConnInfo}


def test_a_time_budget_changes_no_model():
    """With a time budget (as the runner lowers), a file is parsed through a
    callable that can cancel it, and node texts are read from its bytes: the
    models are those of a plain parse, Unicode and all."""
    import time

    from nagle_lint.languages.base import Budget

    cases = [(language, case.source.encode("utf-8")) for language, case in (p.values for p in CASES)]
    cases += [("python", "import socket\ndef f(s: socket.socket):\n    \"é\"; s.send(b'ü' * 2)\n    s.send(b'x')\n"
                          "    s.recv(1)\n".encode()),
              ("c", "void f(int fd) { /* é */ send(fd, \"ü\", 2, 0); send(fd, \"x\", 1, 0); recv(fd, 0, 0, 0); }\n".encode())]
    for language, data in cases:
        fe = frontend(language)
        budgeted = fe.lower("case" + LANGUAGES[language], data, budget=Budget(60, time.monotonic() + 60))
        plain = fe.lower("case" + LANGUAGES[language], data)
        assert dump(budgeted) == dump(plain) and budgeted == plain, data[:80]


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.mark.parametrize("fixture, idle", [
    ("c/reply_read_two_helpers_down.c", "poll_status"),
    ("python/reply_read_two_helpers_down.py", "is_ready"),
    ("java/reply_read_two_helpers_down.java", "ReplyReadTwoHelpersDown.poll"),
])
def test_what_is_worth_lowering(fixture, idle):
    """The function that sends, and every function of the file it calls
    that leads to the read (the helper without an event of its own too),
    are lowered; a function that calls the same helpers but neither sends
    nor calls a function that does is kept without a body: nothing in it
    can start a finding."""
    path = FIXTURES / fixture
    model = frontend(path.parent.name).lower(str(path), path.read_bytes())
    bodies = {fn.qualname for fn in model.functions if fn.body}
    assert idle not in bodies and idle in {fn.qualname for fn in model.functions}
    assert len(bodies - {"<module>"}) == 3, sorted(bodies)  # ask and the two helpers down to the read


def test_making_a_class_lowers_every_constructor_a_call_by_its_name_may_run():
    """Making an object by its class's name runs a constructor that reads through a helper:
    it is lowered, and where two classes of the file (nested in others) have that name,
    both are (either may run), whatever order the names come in."""
    source = b"""
class Plain:
    class Reply:
        def __init__(self, sock):
            self.sock = sock
            self._read()

        def _read(self):
            return self.sock.recv(4096)


class Tls:
    class Reply:
        def __init__(self, sock):
            self.sock = sock
            self._read()

        def _read(self):
            return self.sock.recv(16384)


def ask(sock, head, body):
    sock.sendall(head)
    sock.sendall(body)
    return Reply(sock)
"""
    model = frontend("python").lower("made.py", source)
    bodies = {fn.qualname for fn in model.functions if fn.body}
    assert {"Plain.Reply.__init__", "Tls.Reply.__init__"} <= bodies, sorted(bodies)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_enough_cases(language):
    cases = [c for lang, c in (p.values for p in CASES) if lang == language]
    assert len(cases) >= 10
    assert all(c.expected for c in cases), [c.name for c in cases if not c.expected]


def test_corpus_format_round_trips():
    text = (
        "==================\none\n==================\nx = 1\n\ny = 2\n---\nfunction <module>() @1\n\n"
        "=====\ntwo\n=====\npass\n---\n"
    )
    cases = parse_corpus(text)
    assert [(c.name, c.source, c.expected) for c in cases] == [
        ("one", "x = 1\n\ny = 2\n", "function <module>() @1\n"),
        ("two", "pass\n", ""),
    ]
    assert parse_corpus(format_corpus(cases)) == cases


@pytest.mark.parametrize("bad", [
    "no header\n---\n",
    "=====\nname\n=====\nsource without divider\n",
    "=====\na\n=====\nx\n---\ny\n=====\na\n=====\nz\n---\nw\n",
])
def test_corpus_format_errors(bad):
    with pytest.raises(ValueError):
        parse_corpus(bad)
