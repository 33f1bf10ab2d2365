"""An edited buffer lowered again takes the functions the edit left alone
from its last lowering (languages/edited.py): the model is the one a cold
lowering of the same text gives, edit after edit."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from nagle_lint.languages import base, edited
from nagle_lint.languages.edited import Earlier
from nagle_lint.lint import prepare
from model_dump import dump

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FILES = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".py", ".java", ".c"))


def _edits(data: bytes, seed: str):
    """A few edits one after the other, as typing makes them: a line
    inserted, a line deleted, a line doubled, a word misspelt, then the
    text as it was."""
    rng = random.Random(seed)
    lines = data.split(b"\n")
    at = rng.randrange(len(lines))
    lines.insert(at, b"")
    yield b"\n".join(lines)
    del lines[rng.randrange(len(lines))]
    yield b"\n".join(lines)
    at = rng.randrange(len(lines))
    lines.insert(at, lines[at])
    yield b"\n".join(lines)
    text = b"\n".join(lines)
    word = rng.choice([b"send", b"write", b"recv", b"read", b"flush", b"def ", b"{"])
    yield text.replace(word, word[::-1], 1)
    yield data


def _same(a, b) -> bool:
    # The models whole (dump leaves out an option's comment) and their dumps (that tell where they differ).
    return (dump(a.model), a.model, a.marks, a.errors, a.choice) == (dump(b.model), b.model, b.marks, b.errors, b.choice)


@pytest.fixture
def taken(monkeypatch):
    """The number of functions taken from an earlier lowering, in all."""
    count = [0]
    real = edited.unchanged

    def counting(*args):
        kept = real(*args)
        count[0] += len(kept)
        return kept

    monkeypatch.setattr(edited, "unchanged", counting)  # base imports it where a lowering has an earlier one
    return count


@pytest.mark.parametrize("language", ["python", "java", "c"])
def test_each_edit_of_a_fixture_gives_the_model_a_cold_lowering_gives(language, taken):
    files = [p for p in FILES if p.relative_to(FIXTURES).parts[0] == language]
    assert files
    for path in files:
        data = path.read_bytes()
        earlier = Earlier()
        prepare(str(path), data, earlier=earlier)
        for step, text in enumerate(_edits(data, path.name)):
            assert _same(prepare(str(path), text, earlier=earlier), prepare(str(path), text)), (path, step)
    if language == "python":  # C is parsed in parts, and a Java file is mostly one class: none taken there
        assert taken[0] > 100


SOURCE = b'''import socket

# TCP_NODELAY: the peer is interactive
OPTS = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]


def request(host, head, body):
    sock = socket.create_connection((host, 80))
    sock.sendall(head)
    sock.sendall(body)
    return sock.recv(4096)


class Client:
    def connect(self, host):
        self.sock = socket.create_connection((host, 80))

    def ask(self, head, body):
        self.sock.sendall(head)
        self.sock.sendall(body)
        return self.sock.recv(10)


def tune(sock):
    for opt in OPTS:
        sock.setsockopt(*opt)
    sock.sendall(b"x")
    sock.sendall(b"y")
    return finish(sock)
    # the peer is interactive
def nodelay(sock): sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


async def handle(reader, writer):
    writer.write(b"a")
    writer.write(b"b")


def finish(sock):
    return sock.recv(1)


def post(conn, head, body):
    conn.send(head)
    conn.send(body)
    return conn.getresponse()


def made(host):
    return socket.create_connection((host, 80))


def opened(host):
    sock = made(host)
    sock.sendall(b"a")
    sock.sendall(b"b")
    return sock.recv(1)
'''


def _lowered(text: bytes, earlier=None):
    return prepare("service.py", text, "python", earlier=earlier)


def test_the_functions_before_the_edit_are_kept_and_those_after_it_moved(taken):
    earlier = Earlier()
    first = _lowered(SOURCE, earlier)
    joined = SOURCE.replace(b"    sock.sendall(head)\n    sock.sendall(body)\n", b"    sock.sendall(head + body)\n")
    second = _lowered(joined, earlier)
    assert _same(second, _lowered(joined))
    # Every function lowered but request (and the top-level code) is taken over.
    assert taken[0] == len([fn for fn in second.model.functions if fn.body and fn.qualname not in ("request", "<module>")])
    assert taken[0] >= 4
    old = {fn.qualname: fn for fn in first.model.functions}
    new = {fn.qualname: fn for fn in second.model.functions}
    assert new["Client.ask"].site.line == old["Client.ask"].site.line - 1
    # Edited below them, the functions above are the very same objects.
    third = _lowered(joined.replace(b'sock.sendall(b"y")', b'sock.sendall(b"yy")'), earlier)
    assert {fn.qualname for fn in third.model.functions if fn is new.get(fn.qualname)} >= {"request", "Client.ask"}


@pytest.mark.parametrize("edit", [
    # What another function reads of the file: the names of its functions, a
    # comment just above it, the top-level option table, a callback
    # registered, an interactive protocol's banner, its top-level code.
    (b"def finish(sock):", b"def finished(sock):"),
    (b"    # the peer is interactive", b"    # the peer is bulk"),
    (b"socket.TCP_NODELAY, 1)]", b"socket.TCP_NODELAY, 0)]"),
    (b"    return sock.recv(4096)", b"    asyncio.start_server(handle)\n    return sock.recv(4096)"),
    (b"    return sock.recv(4096)", b'    sock.sendall(b"SSH-2.0-demo")\n    return sock.recv(4096)'),
    (b"\n\nclass Client:", b"\nclass Client:"),
    (b"        self.sock.sendall(head)\n", b"    self.sock.sendall(head)\n"),
])
def test_an_edit_that_changes_what_other_functions_read_gives_the_cold_model(edit):
    earlier = Earlier()
    _lowered(SOURCE, earlier)
    text = SOURCE.replace(*edit)
    assert text != SOURCE
    assert _same(_lowered(text, earlier), _lowered(text))
    assert _same(_lowered(SOURCE, earlier), _lowered(SOURCE))


@pytest.mark.parametrize("edit, kept", [
    # Between top-level definitions, in comments and blank lines: every function is kept
    # but those of the definition next to the lines the edit changed (as the texts' common
    # start and end tell them), or whose comments just above it (a line apart at most) it did.
    ((SOURCE, SOURCE + b"# a note at the end\n"), None),
    ((SOURCE, SOURCE + b"\n\n# two notes\n# at the end\n"), None),
    ((b"\n\nclass Client:", b"\n\n# a note between\n\n\nclass Client:"), "Client"),
    ((b"\n\nclass Client:", b"\n\n# a note between\n\nclass Client:"), "Client"),
    ((b"\n\nclass Client:", b"\n\n\nclass Client:"), "Client"),
    ((b"\n\ndef made(host):", b"\n\n# the maker\ndef made(host):"), "made"),
])
def test_comments_and_blank_lines_between_definitions_keep_the_functions(edit, kept, taken):
    earlier = Earlier()
    _lowered(SOURCE, earlier)
    text = SOURCE.replace(*edit)
    assert text != SOURCE
    second = _lowered(text, earlier)
    assert _same(second, _lowered(text))
    lowered = ("<module>", kept or "<module>")  # the top-level code is lowered again
    assert taken[0] == len([fn for fn in second.model.functions if fn.body and fn.qualname.split(".")[0] not in lowered])


@pytest.mark.parametrize("edit", [
    (b"# TCP_NODELAY: the peer is interactive\n", b"TCP_NODELAY = 1\n"),  # a comment made code
    (b"\n\nclass Client:", b"\n\nx = 1  # between\n\nclass Client:"),
])
def test_code_between_definitions_is_no_comment(edit, taken):
    earlier = Earlier()
    _lowered(SOURCE, earlier)
    text = SOURCE.replace(*edit)
    assert _same(_lowered(text, earlier), _lowered(text))
    assert taken[0] == 0


def test_an_edit_is_parsed_from_the_earlier_tree(monkeypatch):
    """tree-sitter parses again only what the edit touched: the earlier tree,
    told of the edit, is handed to it (and the model is still the cold one)."""
    olds = []
    real = base.Frontend._parse

    def parsing(self, data, budget=None, old=None):
        olds.append(old)
        return real(self, data, budget, old)

    monkeypatch.setattr(base.Frontend, "_parse", parsing)
    earlier = Earlier()
    _lowered(SOURCE, earlier)
    assert olds == [None]
    text = SOURCE.replace(b"sock.sendall(body)", b"sock.sendall(body[:1])")
    assert _same(_lowered(text, earlier), _lowered(text))
    assert olds[1] is not None and olds[2:] == [None]
    assert olds[1].root_node.end_byte == len(text)
