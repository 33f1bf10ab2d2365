"""What the language server does before loading its protocol library
(nagle_lint/lsp/early.py): the first message read and replayed, and the
indexes of the workspace built in a forked process, which the server then
takes instead of building them again."""

from __future__ import annotations

import gc
import io
import json
import os
import shutil
from pathlib import Path

import pytest

from lsp_support import SPLIT_PY
from nagle_lint import runner
from nagle_lint.config import Resolver
from nagle_lint.lsp import early
from nagle_lint.lsp.index import Index

ROOT = Path(__file__).resolve().parent.parent
HELPERS = ROOT / "fixtures" / "c" / "helpers_project"  # a finding that needs two files
needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="the early build needs fork()")


def message(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def initialize(**params) -> bytes:
    return message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})


def test_the_first_message_is_read_whole_and_replayed_before_the_rest():
    first = initialize(rootUri=None, capabilities={})
    second = message({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    stream = io.BytesIO(first + second)
    assert early.read_message(stream) == first
    replay = early.Replay(first, stream)
    # As pygls reads: the headers line by line, then the body by its length.
    got = b""
    for _ in range(2):
        line = replay.readline()
        got += line
        length = int(line.split(b":")[1])
        got += replay.readline() + replay.read(length)
    assert got == first + second
    assert replay.readline() == b"" and replay.read(5) == b""


def test_a_stream_that_ends_or_names_no_length_gives_what_was_read():
    assert early.read_message(io.BytesIO(b"")) == b""
    assert early.read_message(io.BytesIO(b"Content-Len")) == b"Content-Len"
    assert early.read_message(io.BytesIO(b"X: 1\r\n\r\n{}")) == b"X: 1\r\n\r\n"


def test_the_folders_and_settings_of_initialize(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    folders = [{"uri": a.as_uri(), "name": "a"}, {"uri": b.as_uri(), "name": "b"},
               {"uri": (tmp_path / "gone").as_uri(), "name": "gone"}]
    options = {"select": ["NGL001"], "min-confidence": "low", "bogus": 1}
    assert early.folders_of(initialize(workspaceFolders=folders, rootUri=a.as_uri(), initializationOptions=options)) \
        == ([str(a), str(b)], {"select": ("NGL001",), "min_confidence": "low"})
    assert early.folders_of(initialize(rootUri=b.as_uri())) == ([str(b)], {})
    assert early.folders_of(initialize(rootPath=str(a))) == ([str(a)], {})
    assert early.folders_of(message({"jsonrpc": "2.0", "method": "initialized", "params": {}})) == ([], {})
    assert early.folders_of(b"Content-Length: 3\r\n\r\n{{{") == ([], {})


def _key(ix: Index):
    return sorted((f.path, f.rule, tuple(f.site), f.message, f.suppressed) for fs in ix.shown.values() for f in fs)


def _expected(root: str) -> Index:
    ix = Index(root, Resolver({}, start=root), jobs=1)
    ix.build()
    return ix


def _nothing_here(monkeypatch):
    def again(*args, **kwargs):
        raise AssertionError("listed, lowered or checked again")

    # Here, not in the process forked already: the index neither walks the folder nor analyses its files.
    for name in ("plan", "lower_all", "check_each", "read_file"):
        monkeypatch.setattr(runner, name, again)


@needs_fork
def test_the_index_takes_the_early_build_and_shows_what_its_own_build_shows(tmp_path, monkeypatch):
    tree = Path(shutil.copytree(HELPERS, tmp_path / "helpers_project"))
    root = str(tree)
    expected = _expected(root)
    build = early.Build([root], {}, jobs=1)
    with monkeypatch.context() as m:
        _nothing_here(m)
        ix = Index(root, Resolver({}, start=root), jobs=1)
        ix.build(early=build)
        assert _key(ix) == _key(expected) and _key(ix)
        assert ix.problems == expected.problems
        assert ix.prepared == {}  # the models come after what is shown
        ix.ready()
    build.close()
    assert sorted(ix.prepared) == sorted(expected.prepared) and ix.prepared
    assert {p: [f.message for f in fs] for p, fs in ix.raw.items()} == \
        {p: [f.message for f in fs] for p, fs in expected.raw.items()}
    # An edit then analyses as the index built here does: the finding of client.c goes with its helper's send.
    helper = str(tree / "proto.c")
    text = (tree / "proto.c").read_bytes()
    edited = text.replace(b"write(fd, body, strlen(body));", b"(void)body;")
    assert edited != text
    assert ix.update(helper, edited) == expected.update(helper, edited) == {str(tree / "client.c")}
    assert _key(ix) == _key(expected)


@needs_fork
def test_the_index_takes_the_early_build_where_the_open_buffers_are_their_files(tmp_path, monkeypatch):
    """A file opened before the index is built (its buffer is the file on
    disk, which the early build read) does not make the index build again;
    a buffer edited already does."""
    tree = Path(shutil.copytree(HELPERS, tmp_path / "helpers_project"))
    root, client = str(tree), str(tree / "client.c")
    expected = _expected(root)
    build = early.Build([root], {}, jobs=1)
    with monkeypatch.context() as m:
        _nothing_here(m)
        ix = Index(root, Resolver({}, start=root), jobs=1)
        ix.build({client: (tree / "client.c").read_bytes()}, early=build)
        assert _key(ix) == _key(expected) and _key(ix)
        with pytest.raises(AssertionError, match="again"):
            Index(root, Resolver({}, start=root), jobs=1).build({client: b"int edited;\n"}, early=build)
    ix.ready()
    build.close()
    assert client in ix.earlier  # its buffer lowered as such once the models came: an edit takes from it
    assert _key(ix) == _key(expected)


def test_a_build_in_a_new_interpreter_reads_the_buffers_given_it(tmp_path, monkeypatch):
    """A later build (the server's threads make forking unsafe) is a new
    interpreter's: given the open buffers, it shows what the index built
    here with them shows, and is not taken where a buffer changed since."""
    tree = Path(shutil.copytree(HELPERS, tmp_path / "helpers_project"))
    root, helper = str(tree), str(tree / "proto.c")
    texts = {helper: (tree / "proto.c").read_bytes().replace(b"write(fd, body, strlen(body));", b"(void)body;")}
    expected = Index(root, Resolver({}, start=root), jobs=1)
    expected.build(texts)
    assert _key(expected) != _key(_expected(root))  # the buffer's edit shows
    build = early.Build([root], {}, jobs=1, texts=texts, fork=False)
    assert build.read_as(texts) and not build.read_as({helper: b"int other;\n"})
    with monkeypatch.context() as m:
        _nothing_here(m)
        ix = Index(root, Resolver({}, start=root), jobs=1)
        ix.build(texts, early=build)
        assert _key(ix) == _key(expected)
    ix.ready()
    build.close()
    assert sorted(ix.prepared) == sorted(expected.prepared) and ix.prepared and helper in ix.earlier
    assert ix.update(helper, texts[helper]) == expected.update(helper, texts[helper]) == set()
    assert _key(ix) == _key(expected)


@needs_fork
def test_an_early_build_of_other_settings_or_folders_is_not_taken(tmp_path):
    tree = Path(shutil.copytree(HELPERS, tmp_path / "helpers_project"))
    root = str(tree)
    build = early.Build([root], {"select": ("NGL001",)}, jobs=1)
    assert build.shown_of(root, Resolver({}, start=root)) is None  # other settings
    selected = Resolver({"select": ("NGL001",)}, start=root)
    assert build.shown_of(str(tmp_path), selected) is None  # another folder
    shown, problems, broken = build.shown_of(root, selected)
    assert shown and shown.keys() <= set(runner.plan([root], selected).files)
    prepared, raw = build.models_of(root)
    assert prepared and raw.keys() == prepared.keys()
    assert build.pid is None  # waited for


@needs_fork
def test_the_early_build_starts_unless_switched_off(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text("import socket\ns = socket.create_connection(('h', 1))\n"
                                   "s.sendall(b'a')\ns.sendall(b'b')\ns.recv(1)\n")
    first = initialize(rootUri=tmp_path.as_uri(), capabilities={})
    got, build = early.start(io.BytesIO(first))
    assert got == first and build is not None
    shown, _, _ = build.shown_of(str(tmp_path), Resolver({}, start=str(tmp_path)))
    assert [f.rule for f in shown[str(tmp_path / "a.py")]] == ["NGL001"]
    build.close()
    monkeypatch.setenv("NAGLE_LINT_NO_EARLY_BUILD", "1")
    monkeypatch.setattr(early, "Build", None)  # never made
    assert early.start(io.BytesIO(first)) == (first, None)


@needs_fork
def test_a_build_that_fails_gives_nothing_and_the_index_builds_itself(tmp_path, monkeypatch):
    (tmp_path / "a.py").write_text("import socket\n")

    def failing(*args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(runner, "lower_all", failing)  # inherited by the forked process
    build = early.Build([str(tmp_path)], {}, jobs=1)
    assert build.shown_of(str(tmp_path), Resolver({}, start=str(tmp_path))) is None
    assert build.models_of(str(tmp_path)) is None and build.pid is None


@pytest.mark.parametrize("fork", [pytest.param(True, marks=needs_fork), False])
def test_a_broken_configuration_file_is_told_and_its_files_take_the_defaults(tmp_path, fork):
    """As in the server's own build: the build goes on, and tells the error."""
    (tmp_path / ".nagle-lint.toml").write_text("select = 3\n")
    (tmp_path / "a.py").write_text(SPLIT_PY)
    build = early.Build([str(tmp_path)], {}, jobs=1, fork=fork)
    shown, problems, broken = build.shown_of(str(tmp_path), Resolver({}, start=str(tmp_path)))
    build.close()
    assert [f.rule for f in shown[str(tmp_path / "a.py")]] == ["NGL001"]
    assert len(broken) == 1 and ".nagle-lint.toml" in broken[0] and "select" in broken[0]


@needs_fork
def test_models_that_do_not_come_whole_are_built_here(tmp_path, monkeypatch):
    tree = Path(shutil.copytree(HELPERS, tmp_path / "helpers_project"))
    root = str(tree)
    expected = _expected(root)
    build = early.Build([root], {}, jobs=1)
    ix = Index(root, Resolver({}, start=root), jobs=1)
    ix.build(early=build)
    monkeypatch.setattr(build, "_next", lambda: {})  # the models' message broken off
    ix.ready()
    build.close()
    assert sorted(ix.prepared) == sorted(expected.prepared) and ix.prepared
    assert _key(ix) == _key(expected)


def _meta_path_loading(monkeypatch, loading):
    """The import of nagle_lint.lsp.server made by `loading()` for the test;
    the real module, loaded or not, is back after it (its entry and the
    package's name for it)."""
    import sys

    from nagle_lint import lsp

    class Finder:
        def find_spec(self, name, path=None, target=None):
            if name != "nagle_lint.lsp.server":
                return None
            from importlib.machinery import ModuleSpec

            class Loader:
                def create_module(self, spec):
                    return loading()

                def exec_module(self, module):
                    pass

            return ModuleSpec(name, Loader())

    monkeypatch.setitem(sys.modules, "nagle_lint.lsp.server", None)
    monkeypatch.delitem(sys.modules, "nagle_lint.lsp.server")
    monkeypatch.setattr(lsp, "server", None, raising=False)
    monkeypatch.setattr(sys, "meta_path", [Finder(), *sys.meta_path])


def test_the_collector_is_off_while_the_protocol_library_loads_and_on_again_to_serve(monkeypatch):
    import sys
    import types

    from nagle_lint import lsp

    seen = {}

    def loading():  # stands in for the import of nagle_lint.lsp.server
        seen["loading"] = gc.isenabled()
        return types.SimpleNamespace(main=lambda first, *_: seen.setdefault("serving", (gc.isenabled(), first)))

    _meta_path_loading(monkeypatch, loading)
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(b"")))
    assert gc.isenabled()
    lsp.main([])
    assert seen == {"loading": False, "serving": (True, b"")}
    gc.unfreeze()


@needs_fork
def test_a_build_whose_models_are_never_asked_for_is_ended_not_waited_for(tmp_path, monkeypatch):
    import signal
    import threading
    import time

    (tmp_path / "a.py").write_text("import socket\n")
    # The forked process inherits this: it builds for as long as the test would wait.
    monkeypatch.setattr(Index, "build", lambda self, *args, **kwargs: time.sleep(600))
    build = early.Build([str(tmp_path)], {}, jobs=1)
    pid = build.pid
    closing = threading.Thread(target=build.close, daemon=True)
    closing.start()
    closing.join(60)
    ended = not closing.is_alive()
    if not ended:  # (the test fails: the process is ended here instead)
        os.kill(pid, signal.SIGKILL)
        closing.join()
    assert ended and build.pid is None


@needs_fork
def test_the_forked_build_tells_when_its_first_round_is_done(tmp_path, monkeypatch):
    """The server loads its protocol library once the build leaves a core
    free (its later rounds run in its own process alone), not at its end."""
    import signal
    import threading
    import time

    (tmp_path / "a.py").write_text(SPLIT_PY)
    # The forked process inherits this: its later rounds last for as long as the test would wait.
    monkeypatch.setattr(runner, "_later_rounds", lambda *args: time.sleep(600))
    build = early.Build([str(tmp_path)], {}, jobs=1)
    waiting = threading.Thread(target=build.wait_for_a_free_core, daemon=True)
    waiting.start()
    waiting.join(60)
    told = not waiting.is_alive()
    if not told:  # (the test fails: the process is ended here instead)
        os.kill(build.pid, signal.SIGKILL)
        waiting.join()
    build.close()
    assert told and build.free is None


def test_the_answer_to_initialize_is_sent_before_the_protocol_library_loads(monkeypatch):
    import sys
    import types

    from nagle_lint import lsp

    first = initialize(rootUri=None, capabilities={})
    out, seen = io.BytesIO(), []

    class Waiting:
        def wait_for_a_free_core(self):
            seen.append(("waited", out.getvalue()))

    def loading():  # stands in for the import of nagle_lint.lsp.server
        seen.append(("loaded", out.getvalue()))
        return types.SimpleNamespace(main=lambda *args: seen.append(("serving", args[2])))

    _meta_path_loading(monkeypatch, loading)
    monkeypatch.setattr(early, "start", lambda stream: (first, Waiting()))
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(b"")))
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(buffer=out))
    lsp.main([])
    answered = early.answer(first)
    assert answered and seen == [("waited", answered), ("loaded", answered), ("serving", answered)]
    gc.unfreeze()


def test_the_answer_sent_is_not_sent_again():
    first = initialize(rootUri=None, capabilities={})
    sent = early.answer(first)
    out = io.BytesIO()
    answered = early.Answered(out, sent)
    note = message({"jsonrpc": "2.0", "method": "window/logMessage", "params": {"type": 3, "message": "x"}})
    answered.write(note)
    answered.write(sent.replace(b"Content-Length", b"Content-Type: x\r\nContent-Length"))  # the library's
    answered.write(sent)  # (another answer of the same id, were there one: sent)
    assert out.getvalue() == note + sent
    assert early.answer(note) is None


@needs_fork
def test_the_server_waits_for_a_free_core_only_so_long(tmp_path, monkeypatch):
    """And the build goes on where it waited no longer."""
    import time

    (tmp_path / "a.py").write_text(SPLIT_PY)
    first_round = runner._first_round
    ending = tmp_path / "first round may end"

    def held(*args):  # inherited by the forked process: its first round ends once the test says so
        while not ending.exists():
            time.sleep(0.01)
        return first_round(*args)

    monkeypatch.setattr(runner, "_first_round", held)
    build = early.Build([str(tmp_path)], {}, jobs=1)
    start = time.monotonic()
    build.wait_for_a_free_core(limit=0.2)
    waited = time.monotonic() - start
    ending.touch()
    shown, _, _ = build.shown_of(str(tmp_path), Resolver({}, start=str(tmp_path)))
    build.close()
    assert 0.2 <= waited < 30 and build.free is None and build.pid is None
    assert [f.rule for f in shown[str(tmp_path / "a.py")]] == ["NGL001"]
