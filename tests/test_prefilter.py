"""The byte prefilter only saves work: every fixture, of every language, gives
the same findings when no file and no function is skipped for its bytes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nagle_lint.languages import frontend, scanner
from nagle_lint.languages.c_scan import CScanner
from nagle_lint.languages.java_scan import JavaScanner
from nagle_lint.languages.python_scan import PythonScanner
from nagle_lint.config import Settings
from nagle_lint.runner import lint_file, run
from test_fixtures import FIXTURES, PROJECTS, SOURCES, settings_for

EVERYWHERE = re.compile(rb"")  # matches in any text, even an empty one


@pytest.fixture
def without_prefilter(monkeypatch):
    """Each scanner lets every file through and finds an event and a send in
    every function (new scanners and frontends: derived patterns are cached
    on them)."""
    for cls in (PythonScanner, JavaScanner, CScanner):
        monkeypatch.setattr(cls, "may_find", lambda self, data, *how: True)
        monkeypatch.setattr(cls, "events_in", lambda self, data: EVERYWHERE)
        monkeypatch.setattr(cls, "sends_or_options", EVERYWHERE)
        monkeypatch.setattr(cls, "starts_in", lambda self, data: EVERYWHERE)
        monkeypatch.setattr(cls, "talks", lambda self, data: True)
    scanner.cache_clear()
    frontend.cache_clear()
    yield
    scanner.cache_clear()
    frontend.cache_clear()


def _found(findings):
    # Not the message: where more functions are lowered, a connection may be
    # named by another of its aliases (`this.socket` for `socket`).
    return sorted((f.path, f.site.line, f.site.col, f.rule, f.confidence) for f in findings)


def _lint_all():
    """Path -> findings at the default confidence and at `low`."""
    found = {}
    for path in FIXTURES:
        settings = settings_for(path.read_text(encoding="utf-8", errors="replace"))
        found[path] = [_found(lint_file(str(path), s)[1]) for s in (settings, settings.replace(min_confidence="low"))]
    for folder in PROJECTS:
        files = sorted(p for p in folder.rglob("*") if p.suffix in SOURCES)
        settings = settings_for("".join(p.read_text(encoding="utf-8") for p in files))
        found[folder] = [_found(run([str(folder)], s, jobs=1).findings)
                         for s in (settings, settings.replace(min_confidence="low"))]
    return found


@pytest.fixture(scope="module")
def with_prefilter():
    return _lint_all()


def test_the_prefilter_hides_no_finding(with_prefilter, without_prefilter):
    without = _lint_all()
    differ = [f"{Path(p).name}: with {with_prefilter[p]}, without {without[p]}"
              for p in with_prefilter if with_prefilter[p] != without[p]]
    assert not differ, "\n".join(differ)


def test_the_prefilter_is_off(without_prefilter):
    """The switch works: a file without any socket word is let through."""
    assert scanner("python").may_find(b"x = 1\n")


# A socket's write kept in a name by the function that makes the socket: each call of the name is a send.
KEPT_SOCKET_WRITE = (b"import socket\ndef f():\n    s = socket.create_connection(('h', 1))\n    w = s.write\n"
                     b"    w(b'a')\n    w(b'b')\n    s.recv(1)\n")
# A transport's write kept in a file with no socket code of its own (Twisted's `_w = self.transport.write`).
KEPT_TRANSPORT_WRITE = b"class P:\n    def f(self):\n        _w = self.transport.write\n        _w(b'a')\n        _w(b'b')\n"


def test_a_file_like_method_kept_in_a_name_lets_a_file_through_where_it_can_send():
    """A `.write` kept in a name counts as `.write(` does: where the file has
    socket streams, or in a function with a socket event of its own."""
    python = scanner("python")
    found = lint_file("kept.py", Settings(min_confidence="low"), KEPT_SOCKET_WRITE)[1]
    assert [(f.rule, f.site.line) for f in found] == [("NGL001", 6)]
    assert python.may_find(KEPT_SOCKET_WRITE, "low")
    assert python.may_find(b"import asyncio\n" + KEPT_TRANSPORT_WRITE, "low")
    assert not python.may_find(KEPT_TRANSPORT_WRITE, "low")
