"""The same tree gives the same bytes: text, JSON and SARIF output do not depend
on the order in which files are found or named, nor on the number of worker
processes.  The tree is big enough for workers (runner.PARALLEL_THRESHOLD),
and holds findings, suppressed findings, syntax errors and files that are not
linted, so that every part of a report is compared."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from nagle_lint import runner
from nagle_lint.cli import main
from nagle_lint.config import Settings

from test_cli import BYTE_LOOP, JOINED, NODELAY_NOTE, SPLIT, write
from test_robustness import C_SPLIT, JAVA_SPLIT

FILES = 80
assert FILES >= runner.PARALLEL_THRESHOLD + 8


def make_tree(root: Path) -> list[str]:
    """FILES small files over a few folders; returns their paths, sorted."""
    kinds = [
        ("py", SPLIT), ("py", JOINED), ("py", NODELAY_NOTE), ("py", BYTE_LOOP),
        ("c", C_SPLIT), ("java", JAVA_SPLIT),
        ("py", SPLIT.replace("    sock.sendall(body)", "    sock.sendall(body)  # nagle-lint: ignore[NGL001] -- "
                                                      "the peer answers at once")),
        ("py", "def oops(:\n    pass\n\n\n" + SPLIT),  # a syntax error before a finding
    ]
    paths = []
    for i in range(FILES):
        ext, source = kinds[i % len(kinds)]
        folder = ("alpha", "beta/inner", "gamma", "zeta")[i % 4]
        name = f"{folder}/f{i:03}.{ext}" if ext != "java" else f"{folder}/F{i:03}.java"
        if ext == "java":
            source = source.replace("class Query", f"class F{i:03}")
        paths.append(str(write(root, name, source.replace("query", f"query{i}"))))
    (root / "gamma" / "blob.c").write_bytes(b"\0\1\2\3")  # reported, not linted
    (root / "zeta" / "huge.py").write_bytes(b"x = 1\n" * 200_000)  # over the size limit
    return sorted(paths)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("tree")
    make_tree(root)
    return root


def report(tree: Path, fmt: str, jobs: int, paths: list[str], capsys, monkeypatch) -> tuple[bytes, str]:
    """(the report's bytes, stderr) of one run from the tree's root."""
    monkeypatch.chdir(tree)
    out = tree.parent / f"report-{os.getpid()}.{fmt}"
    code = main(["--no-cache", "--format", fmt, "--jobs", str(jobs), "--max-file-size", "1MB",
                 "--output-file", str(out), *paths])
    _, err = capsys.readouterr()
    assert code == 1, err
    data = out.read_bytes()
    out.unlink()
    return data, err


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_jobs_do_not_change_the_output(tree, fmt, capsys, monkeypatch):
    one, err_one = report(tree, fmt, 1, ["."], capsys, monkeypatch)
    two, err_two = report(tree, fmt, 2, ["."], capsys, monkeypatch)
    four, _ = report(tree, fmt, 4, ["."], capsys, monkeypatch)
    assert one == two == four
    assert err_one == err_two
    assert b"NGL001" in one and b"blob.c" in (one if fmt != "text" else err_one.encode())


def test_a_process_pool_where_fork_is_missing_gives_the_same_output(tree, capsys, monkeypatch):
    """Where the platform cannot fork, the work goes to a process pool."""
    from nagle_lint import forks

    one, _ = report(tree, "json", 1, ["."], capsys, monkeypatch)
    monkeypatch.setattr(forks, "can_fork", lambda: False)
    pools = []
    close = runner._Workers.close
    monkeypatch.setattr(runner._Workers, "close", lambda self: (pools.append(self.pool), close(self))[1])
    two, _ = report(tree, "json", 2, ["."], capsys, monkeypatch)
    assert one == two
    assert any(pool is not None for pool in pools)


def test_workers_sharing_the_scan_do_not_change_the_output(tmp_path, capsys, monkeypatch):
    """A tree big enough is scanned by the workers with this process; a tree
    with socket code here and there gives what one process gives."""
    for i in range(120):
        write(tmp_path, f"m{i:03}.py", SPLIT.replace("query", f"query{i}") if i % 30 == 7 else f"X{i} = {i}\n")
    one, _ = report(tmp_path, "json", 1, ["."], capsys, monkeypatch)
    shared = []
    share = runner._Workers.map
    monkeypatch.setattr(runner._Workers, "map", lambda self, work, items, *extra, **kw: (
        shared.append((work.__name__, len(items), self.parallel)), share(self, work, items, *extra, **kw))[1])
    two, _ = report(tmp_path, "json", 2, ["."], capsys, monkeypatch)
    assert one == two
    assert b"NGL001" in one
    assert ("_scan_many", 120, True) in shared


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_the_order_of_paths_does_not_change_the_output(tree, fmt, capsys, monkeypatch):
    monkeypatch.chdir(tree)
    files = sorted(str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file() and ".nagle" not in str(p))
    shuffled = files[:]
    random.Random(7).shuffle(shuffled)
    folders = ["zeta", "gamma", "beta", "alpha"]
    base, _ = report(tree, fmt, 1, sorted(files), capsys, monkeypatch)
    assert report(tree, fmt, 1, shuffled, capsys, monkeypatch)[0] == base
    assert report(tree, fmt, 1, list(reversed(files)), capsys, monkeypatch)[0] == base
    assert report(tree, fmt, 2, shuffled, capsys, monkeypatch)[0] == base
    by_folder, _ = report(tree, fmt, 1, folders, capsys, monkeypatch)
    assert report(tree, fmt, 1, sorted(folders), capsys, monkeypatch)[0] == by_folder
    assert report(tree, fmt, 2, folders[::-1], capsys, monkeypatch)[0] == by_folder


@pytest.mark.parametrize("fmt", ["text", "json", "sarif"])
def test_the_order_of_the_file_system_does_not_change_the_output(tree, fmt, capsys, monkeypatch):
    """Directory listings come in any order (it differs between file systems)."""
    base, _ = report(tree, fmt, 1, ["."], capsys, monkeypatch)
    real = os.scandir

    class Shuffled:
        def __init__(self, path="."):
            self.it = real(path)
            self.entries = list(self.it)
            random.Random(str(path)).shuffle(self.entries)

        def __iter__(self):
            return iter(self.entries)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.it.close()

        def close(self):
            self.it.close()

    monkeypatch.setattr(os, "scandir", Shuffled)
    assert report(tree, fmt, 1, ["."], capsys, monkeypatch)[0] == base
    assert report(tree, fmt, 2, ["."], capsys, monkeypatch)[0] == base


def test_the_same_file_twice_gives_the_same_findings(tree):
    from nagle_lint.config import Settings

    for path in sorted(tree.rglob("f00*.*")):
        first = runner.lint_file(str(path), Settings())
        second = runner.lint_file(str(path), Settings())
        assert [(f.rule, f.site, f.message, f.confidence) for f in first[1]] == \
               [(f.rule, f.site, f.message, f.confidence) for f in second[1]]


HELPER = """import socket


def send_request(sock, head, body):
    sock.sendall(head)
    sock.sendall(body)  # nagle-lint: ignore[NGL001] -- the peer answers at once
"""

CALLER = """import socket

from helper import send_request


def query(host):
    sock = socket.create_connection((host, 80))
    send_request(sock, b"HEAD", b"BODY")
    return sock.recv(100)
"""


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_suppression_holds_in_the_helper_a_finding_lies_in(tmp_path, jobs):
    """A finding of the caller's analysis lies in the helper's file: the
    helper's suppression applies, whichever process checked the caller."""
    write(tmp_path, "helper.py", HELPER)
    write(tmp_path, "client.py", CALLER)
    for i in range(runner.PARALLEL_THRESHOLD // 4 + 4):  # enough files for the checks to be shared
        write(tmp_path, f"other{i:02}.py", SPLIT.replace("query", f"query{i}"))
    found = runner.run([str(tmp_path)], Settings(), jobs=jobs).findings
    in_helper = [f for f in found if f.path.endswith("helper.py")]
    assert [(f.site.line, f.suppressed) for f in in_helper] == [(6, "the peer answers at once")]
    assert sum(1 for f in found if not f.suppressed) == runner.PARALLEL_THRESHOLD // 4 + 4


def test_a_later_round_among_many_skipped_files_gives_the_same_output_with_workers(tmp_path, capsys, monkeypatch):
    """Among many skipped files, a later round finds the helper one of them
    defines with workers as with one process (the connection it makes is
    sure: the finding is of high confidence only with it)."""
    write(tmp_path, "main.py", "def query(addr):\n    s = connect_to(addr)\n    s.sendall(b'head')\n"
                               "    s.sendall(b'body')\n    return s.recv(10)\n")
    write(tmp_path, "lib/helper.py", "import socket\n\n\ndef connect_to(addr):\n    return socket.create_connection(addr)\n")
    for i in range(runner.PARALLEL_THRESHOLD + 16):
        write(tmp_path, f"lib/m{i:03}.py", f"def f{i}(x):\n    return g{i}(x) + 1\n")
    one, _ = report(tmp_path, "json", 1, ["."], capsys, monkeypatch)
    two, _ = report(tmp_path, "json", 2, ["."], capsys, monkeypatch)
    assert one == two
    assert [(f["rule"], f["confidence"]) for f in json.loads(one)["findings"]] == [("NGL001", "high")]


def test_of_findings_as_sure_at_one_place_the_one_whose_steps_come_first_is_kept():
    """The analysis' records come in an order that changes from run to run (sets of records
    holding None hash differently in each process): which of two findings is kept must not
    depend on it."""
    from nagle_lint.checks import best_of
    from nagle_lint.findings import Finding, Step
    from nagle_lint.site import Site

    def held_at(line: int) -> Finding:
        return Finding("NGL004", "a.c", Site(9, 5, 9, 40), "MSG_MORE on the last send", "warning", "high",
                       related=(Step(Site(line, 5, line, 40), "data held"),))

    assert best_of([held_at(8), held_at(7)]) == best_of([held_at(7), held_at(8)]) == [held_at(7)]
