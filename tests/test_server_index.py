"""The language server's project index (no protocol): it finds what the
command line finds, buffer or file, and an edit re-analyses the edited file
and the files that call into it only."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nagle_lint.config import Settings, find_config, load
from nagle_lint.lsp import index as index_module
from nagle_lint.lsp.index import Index
from nagle_lint.runner import run

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def _key(findings):
    return sorted((f.path, f.rule, tuple(f.site), f.message, f.suppressed) for f in findings)


def _all(ix: Index):
    return [f for found in ix.shown.values() for f in found]


@pytest.mark.parametrize("language", ["python", "c", "java"])
def test_the_index_finds_what_the_command_line_finds_and_open_buffers_change_nothing(language):
    """Every file of a fixtures tree opened in turn as an unsaved buffer of
    its unchanged bytes (the buffers stay open): after each, the index
    shows what the command line finds.  An opened file is lowered even
    where the command line's byte scan skips it, so its first lowering
    knows nothing of what the other files call of it (base_constructor_project/
    response.py: its constructors, reached from client.py, read through a
    base class's method)."""
    root = FIXTURES / language
    settings = load(find_config(root))
    expected = _key(run([str(root)], settings, jobs=1).findings)
    ix = Index(str(root), settings, jobs=1)
    ix.build()
    assert _key(_all(ix)) == expected and expected
    files = sorted(p for p in root.rglob("*") if p.suffix in (".py", ".java", ".c", ".h"))
    assert len(files) > 100
    for path in files:
        ix.update(str(path), path.read_bytes())
        assert _key(_all(ix)) == expected, path


def test_an_edit_analyses_the_file_and_its_callers_and_gives_what_a_cold_run_gives(tmp_path, monkeypatch):
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "c" / "helpers_project", tree / "helpers_project")
    shutil.copytree(FIXTURES / "python", tree / "python")
    ix = Index(str(tree), Settings(), jobs=1)
    ix.build()
    client, proto = str(tree / "helpers_project" / "client.c"), str(tree / "helpers_project" / "proto.c")
    assert [f.rule for f in ix.findings(client)] == ["NGL001"]
    analysed = []
    real = index_module.raw_findings
    monkeypatch.setattr(index_module, "raw_findings", lambda prepared, *rest, **named: (
        analysed.extend(p.path for p in prepared), real(prepared, *rest, **named))[1])
    edited = (tree / "helpers_project" / "proto.c").read_bytes().replace(b"write(fd, body", b"(void)(fd, body")
    assert ix.update(proto, edited) == {client}
    assert sorted(analysed) == sorted([client, proto])  # not the Python files
    assert ix.findings(client) == []
    (tree / "helpers_project" / "proto.c").write_bytes(edited)
    assert _key(_all(ix)) == _key(run([str(tree)], Settings(), jobs=1).findings)


def test_the_index_excludes_a_file_as_the_command_line_walk_does(tmp_path, monkeypatch):
    """An open file is owned by its folder's index exactly where a run over the
    folder would lint it: the same gitignore-style patterns (`src/*.py` does
    not reach `src/deep/x.py`; `/top.py` is anchored at the configuration's folder)."""
    monkeypatch.chdir(tmp_path)
    for name in ("src/a.py", "src/deep/x.py", "top.py", "lib/top.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("import socket\n", encoding="utf-8")
    config = tmp_path / ".nagle-lint.toml"
    config.write_text('exclude = ["src/*.py", "/top.py"]\n', encoding="utf-8")
    settings = load(str(config))
    ix = Index(str(tmp_path), settings, jobs=1)
    walked = set(run_plan(str(tmp_path), settings))
    assert walked == {str(tmp_path / "src/deep/x.py"), str(tmp_path / "lib/top.py")}
    for name in ("src/a.py", "src/deep/x.py", "top.py", "lib/top.py"):
        assert ix.owns(str(tmp_path / name)) == (str(tmp_path / name) in walked), name


def run_plan(root, settings):
    from nagle_lint.runner import plan

    return plan([root], settings).files


def test_edits_do_not_grow_what_the_index_holds(tmp_path):
    """An editor's index lives for days: after the same edit many times, it
    holds no more than after the first (the models it replaced are gone)."""
    import gc

    from nagle_lint.model import Function

    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "c" / "helpers_project", tree)
    ix = Index(str(tree), Settings(), jobs=1)
    ix.build()
    proto = tree / "proto.c"

    def alive_after_edits(n):
        for _ in range(n):
            ix.update(str(proto), proto.read_bytes())
        gc.collect()
        return sum(isinstance(o, Function) for o in gc.get_objects())

    assert alive_after_edits(1) == alive_after_edits(5)


def test_the_index_takes_each_files_nearest_configuration(tmp_path, monkeypatch):
    """As the command line does: sub/'s own configuration for sub/'s files,
    the root's for the others, an edit in either analysed with its own."""
    from nagle_lint.config import Resolver

    monkeypatch.chdir(tmp_path)
    split = (FIXTURES / "python" / "split_write_client.py").read_bytes()
    nodelay = (FIXTURES / "python" / "nodelay_undocumented.py").read_bytes()
    for folder in ("src", "sub"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "split.py").write_bytes(split)
        (tmp_path / folder / "nodelay.py").write_bytes(nodelay)
    (tmp_path / ".nagle-lint.toml").write_text('select = ["NGL001"]\n', encoding="utf-8")
    (tmp_path / "sub" / ".nagle-lint.toml").write_text('select = ["NGL002"]\n', encoding="utf-8")
    expected = _key(run([str(tmp_path)], Resolver(), jobs=1).findings)
    assert sorted((f[0].replace(str(tmp_path), ""), f[1]) for f in expected) == [
        ("/src/split.py", "NGL001"), ("/sub/nodelay.py", "NGL002")]
    ix = Index(str(tmp_path), Resolver(), jobs=1)
    ix.build()
    assert _key(_all(ix)) == expected
    for folder in ("src", "sub"):
        ix.update(str(tmp_path / folder / "nodelay.py"), nodelay + b"\n")
        assert _key(_all(ix)) == expected


HELPERS = b'''import socket


def send_header(sock, header):
    sock.sendall(header)


def connect(host):
    return socket.create_connection((host, 80))
'''
CLIENT = b'''from helpers import connect, send_header


def fetch(host, header, body):
    sock = connect(host)
    send_header(sock, header)
    sock.sendall(body)
    return sock.recv(4096)


def ping(host):
    sock = connect(host)
    sock.sendall(b"a")
    sock.sendall(b"b")  # nagle-lint: ignore[NGL001] -- <reason>
    return sock.recv(1)


def status(host):
    sock = connect(host)
    sock.sendall(b"s")
    return sock.recv(1)
'''


LOCAL = b'''import socket


def send_all(sock, head, body):
    sock.sendall(head)
    sock.sendall(body)


def request(sock):
    send_all(sock, b"h", b"b")
    return sock.recv(1)


class Conn:
    def open(self, host):
        self.sock = socket.create_connection((host, 80))

    def ask(self):
        self.sock.sendall(b"a")
        self.sock.sendall(b"b")
        return self.sock.recv(1)


def other(sock):
    sock.sendall(b"x")
    sock.sendall(b"y")


def setup(self):
    self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def talk(self):
    self.sock.sendall(b"a")
    self.sock.sendall(b"b")
    return self.sock.recv(1)
'''


def _whole(findings):
    """Each finding with all it says: how sure, its other sites and the path that proves it."""
    return sorted((f.path, f.rule, tuple(f.site), f.message, f.suppressed, f.level, f.confidence, f.related, f.flow,
                   f.fix) for f in findings)


def test_typing_in_buffers_gives_what_a_cold_index_of_the_same_buffers_gives(tmp_path, monkeypatch):
    """Edit after edit (lines added and removed above other functions, a
    finding made and unmade, in the file and in the helper it calls), the
    index shows what an index built afresh from the same buffers shows."""
    (tmp_path / "helpers.py").write_bytes(HELPERS)
    (tmp_path / "client.py").write_bytes(CLIENT)
    (tmp_path / "other.py").write_bytes((FIXTURES / "python" / "split_write_client.py").read_bytes())
    (tmp_path / "local.py").write_bytes(LOCAL)
    helpers, client, local = str(tmp_path / "helpers.py"), str(tmp_path / "client.py"), str(tmp_path / "local.py")
    steps = [
        # In one file: a helper edited under the function that calls it, an
        # option set in another method, a function that becomes a callee, an
        # option set on a field by another function.
        (local, LOCAL.replace(b"    sock.sendall(head)\n    sock.sendall(body)\n", b"    sock.sendall(head + body)\n")),
        (local, LOCAL.replace(b"import socket\n", b"import socket\n\n# a comment\n")),
        (local, LOCAL.replace(b"    sock.sendall(body)\n", b"    sock.sendall(body)\n    sock.recv(1)\n")),
        (local, LOCAL.replace(b"    sock.sendall(head)\n", b"    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)\n"
                                                         b"    sock.sendall(head)\n")),
        (local, LOCAL.replace(b"    self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)\n",
                              b"    self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)\n    other(self.sock)\n")),
        (local, LOCAL.replace(b"        self.sock = socket.create_connection((host, 80))\n",
                              b"        self.sock = socket.create_connection((host, 80))\n"
                              b"        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)\n")),
        (local, LOCAL.replace(b"    return sock.recv(1)\n\n\nclass", b"    other(sock)\n    return sock.recv(1)\n\n\nclass")),
        (local, LOCAL.replace(b"    self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)\n", b"    pass\n")),
        (local, LOCAL),
        (client, CLIENT.replace(b"    sock.sendall(body)\n", b"    sock.sendall(body)\n\n\n")),
        (client, CLIENT.replace(b"    send_header(sock, header)\n", b"")),
        (client, CLIENT.replace(b'    sock.sendall(b"s")\n', b'    sock.sendall(b"s")\n    sock.sendall(b"t")\n')),
        (helpers, HELPERS.replace(b"    sock.sendall(header)\n", b"    pass\n")),
        (client, CLIENT.replace(b"def ping(host):\n", b"def ping(host):\n    # a comment\n")),
        (helpers, HELPERS),
        (client, CLIENT),
    ]
    reused = []
    real = index_module.Runs.get
    monkeypatch.setattr(index_module.Runs, "get", lambda *args: (lambda part: (reused.append(part), part)[1])(real(*args)))
    settings = Settings(min_confidence="low")  # every finding, the least sure too
    ix = Index(str(tmp_path), settings, jobs=1)
    texts = {client: CLIENT, helpers: HELPERS, local: LOCAL}
    ix.build(dict(texts))
    shown = set()
    for path, text in steps:
        ix.update(path, text)
        texts[path] = text
        cold = Index(str(tmp_path), settings, jobs=1)
        cold.build(dict(texts))
        assert _whole(_all(ix)) == _whole(_all(cold)), (path, text)
        shown.add(tuple(_key(ix.findings(client) + ix.findings(local))))
    assert len(shown) >= 5  # the edits made and unmade findings
    assert any(reused) and None in reused  # the runs of functions the edits left alone were taken over, not all


def test_the_files_an_edit_reaches_are_found_resolving_each_call_once(tmp_path, monkeypatch):
    """Finding the files an edit reaches resolves each call of the other
    files once (in the project now and in the one before), not once more
    for each round in which the search takes in a file."""
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "c" / "helpers_project", tree / "helpers_project")
    shutil.copytree(FIXTURES / "python", tree / "python")
    ix = Index(str(tree), Settings(), jobs=1)
    ix.build()
    proto, client = str(tree / "helpers_project" / "proto.c"), str(tree / "helpers_project" / "client.c")
    calls = sum(len(ix.project.facts(fn).calls) for p, prep in ix.prepared.items()
                for fn in prep.model.functions if fn.body)
    assert calls > len(ix.project.facts(next(fn for fn in ix.prepared[client].model.functions if fn.body)).calls)
    resolved = []
    real = type(ix.project).resolve
    monkeypatch.setattr(type(ix.project), "resolve", lambda project, *args: (resolved.append(args), real(project, *args))[1])
    assert ix.project.dependents({proto}, ix.project) == {proto, client}
    assert len(resolved) == 2 * calls


def test_an_index_holds_no_reference_cycles(tmp_path):
    """The server keeps what a build made out of the collector's reach
    (gc.freeze): what of it edits let go is then freed only because the
    index holds no reference cycles."""
    import gc

    tree = tmp_path / "tree"
    shutil.copytree(FIXTURES / "c" / "helpers_project", tree / "helpers_project")
    shutil.copytree(FIXTURES / "python", tree / "python")
    ix = Index(str(tree), Settings(), jobs=1)
    ix.build()
    for path in sorted(ix.prepared)[:4]:
        text = Path(path).read_bytes()
        ix.update(path, text + b"\n")
        ix.update(path, text)
    gc.collect()
    del ix
    assert gc.collect() == 0


def test_an_edit_of_one_overload_analyses_again_the_functions_that_call_it(tmp_path):
    """A call runs the overload with its number of arguments: an edit of that
    overload takes over no earlier run of a function that reaches it."""
    path = tmp_path / "Framer.java"
    text = (FIXTURES / "java" / "overloads_by_arity.java").read_bytes()
    path.write_bytes(text)
    ix = Index(str(tmp_path), Settings(), jobs=1)
    ix.build()
    assert [f.rule for f in ix.findings(str(path))] == ["NGL001"]
    # The one-argument overload, declared first, stops writing: the two-argument
    # one (the file's last `send`) and its caller are left as they were.
    quiet = text.replace(b"        out.write(piece);\n", b"        (piece).clone();\n")
    assert quiet != text
    ix.update(str(path), quiet)
    path.write_bytes(quiet)
    assert ix.findings(str(path)) == [] == run([str(tmp_path)], Settings(), jobs=1).findings


def test_the_index_is_built_with_the_collector_of_the_command_lines_run(tmp_path, monkeypatch):
    """The build is the command line's work: the cyclic collector runs as
    seldom in it as in the command line's run (on Netty, a tenth of a second
    of the build's own process, and as much in its workers)."""
    import gc

    from nagle_lint import runner

    shutil.copytree(FIXTURES / "c" / "helpers_project", tmp_path / "helpers_project")
    seen: dict[str, list] = {}
    lower_all, check_each = runner.lower_all, runner.check_each

    def recording(phase, work):
        def recorded(*args, **kwargs):
            seen[phase].append((work.__name__, gc.get_threshold()))
            return work(*args, **kwargs)
        return recorded

    for phase in ("command line", "index"):
        seen[phase] = []
        with monkeypatch.context() as m:
            m.setattr(runner, "lower_all", recording(phase, lower_all))
            m.setattr(runner, "check_each", recording(phase, check_each))
            if phase == "index":
                Index(str(tmp_path), Settings(), jobs=1).build()
            else:
                run([str(tmp_path)], Settings(), jobs=1)
    assert seen["index"] == seen["command line"] and len(seen["index"]) == 2
    assert seen["index"][0][1] != gc.get_threshold()  # (not the collector's usual settings)


def test_a_file_gone_since_its_lowering_is_not_lowered_again(tmp_path):
    """A file deleted after the index lowered it (a branch switched under
    the editor) is not read again for what other files need: no error."""
    from types import SimpleNamespace

    gone = tmp_path / "writer.py"
    method = SimpleNamespace(qualname="Writer.send_frame", body=[])
    prep = SimpleNamespace(model=SimpleNamespace(functions=[method]))
    ix = Index(str(tmp_path), Settings(), jobs=1)
    assert ix._left_out_kept(str(gone), prep, SimpleNamespace(effects=frozenset({"write_frame"}))) is False
