"""The result cache (.nagle_lint_cache/), `nagle-lint clean`, and linting
standard input (--stdin-filename)."""

from __future__ import annotations

import io
import json
import os
import sys

from nagle_lint import cache
from nagle_lint.cli import main

SPLIT = b"""import socket


def ask(host):
    sock = socket.create_connection((host, 80))
    sock.sendall(b"GET ")
    sock.sendall(b"/ HTTP/1.0\\r\\n\\r\\n")
    return sock.recv(100)
"""
JOINED = SPLIT.replace(b'    sock.sendall(b"GET ")\n    sock.sendall(b"/ HTTP/1.0\\r\\n\\r\\n")',
                       b'    sock.sendall(b"GET / HTTP/1.0\\r\\n\\r\\n")')


def lint(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_warm_run_gives_the_stored_result_and_a_change_invalidates_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes(SPLIT)
    first = lint(capsys, "app.py")
    assert first[0] == 1 and "NGL001" in first[1] and "Found 1 finding" in first[2]
    entries = [e for e in os.listdir(tmp_path / ".nagle_lint_cache") if e.endswith(".json")]
    assert len(entries) == 1
    assert lint(capsys, "app.py") == first  # printed again: same status, report and warnings

    # The stored result is what another way of printing it shows: tampering with it shows through...
    path = tmp_path / ".nagle_lint_cache" / entries[0]
    data = json.loads(path.read_text())
    data["findings"][0]["message"] = "from the cache"
    path.write_text(json.dumps(data))
    assert "from the cache" in lint(capsys, "--format", "json", "app.py")[1]
    assert lint(capsys, "app.py") == first  # the same command prints what it printed
    # ...until the file changes (size and time are part of the key).
    (tmp_path / "app.py").write_bytes(JOINED)
    assert lint(capsys, "app.py")[0] == 0


def printed_entries(folder):
    return sorted(e.name for e in (folder / ".nagle_lint_cache").iterdir() if e.suffix == ".out")


def test_what_a_command_printed_is_printed_again_for_that_command_only(tmp_path, capsys, monkeypatch):
    """Each way of printing a result (format, --quiet, --verbose, --exit-zero,
    and the settings) keeps its own text; a replay gives the same status and
    the same bytes on both streams (and in the output file) as the run that
    stored it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes(SPLIT)
    lines = SPLIT.splitlines(keepends=True)
    lines[6] = lines[6].replace(b"\n", b"  # nagle-lint: ignore[NGL001] -- header first\n")
    (tmp_path / "hushed.py").write_bytes(b"".join(lines))
    (tmp_path / "broken.py").write_bytes(SPLIT + b"def (:\n")  # a syntax error: --verbose names the file
    files = ("app.py", "hushed.py", "broken.py")
    commands = [files, ("--format", "json", *files), ("-q", *files), ("--verbose", *files), ("--exit-zero", *files),
                ("--ignore", "NGL001", "--format", "json", *files), ("-o", "report.txt", *files)]
    fresh = {}
    for argv in commands:
        fresh[argv] = lint(capsys, "--no-cache", *argv), (tmp_path / "report.txt").read_text() \
            if "-o" in argv else None
    assert len(set(fresh.values())) == len(commands)  # each prints something of its own
    for argv in commands:
        lint(capsys, *argv)  # stores
    assert len(printed_entries(tmp_path)) == len(commands) - 1  # a report written to a file is the same text
    monkeypatch.setattr("nagle_lint.runner.run_planned", None)  # nothing may be linted or loaded now
    monkeypatch.setattr("nagle_lint.cache.Cache.load", None)
    for argv in reversed(commands):
        if "-o" in argv:
            (tmp_path / "report.txt").unlink()
        assert (lint(capsys, *argv), (tmp_path / "report.txt").read_text() if "-o" in argv else None) == fresh[argv]


def test_reports_that_read_more_than_the_result_are_not_replayed(tmp_path, capsys, monkeypatch):
    """SARIF reads the files and GitHub's format the environment; a baseline
    changes the result after it is stored: these are rendered every run."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes(SPLIT)
    lint(capsys, "--write-baseline", "base.json", "app.py")
    for argv in (("--format", "sarif", "app.py"), ("--format", "github", "app.py"),
                 ("--baseline", "base.json", "app.py"), ("--write-baseline", "base.json", "app.py")):
        lint(capsys, *argv)
        lint(capsys, *argv)
    assert printed_entries(tmp_path) == []
    assert lint(capsys, "--baseline", "base.json", "app.py")[0] == 0  # the baseline still applies to a stored result


def test_a_damaged_printed_entry_is_ignored(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes(SPLIT)
    first = lint(capsys, "app.py")
    [name] = printed_entries(tmp_path)
    entry = tmp_path / ".nagle_lint_cache" / name
    for damaged in ("", "7 3\nabc", "0 99\nshort", "x\n", "1 -1\n", b"1 2\n\xff\xfe"):
        (entry.write_bytes if isinstance(damaged, bytes) else entry.write_text)(damaged)
        assert lint(capsys, "app.py") == first
    entry.write_text("0 4\nNEWSand this")  # a well-formed entry is believed: the cache is ours to write
    assert lint(capsys, "app.py") == (0, "NEWS", "and this")


def test_printed_entries_go_with_their_result(tmp_path, monkeypatch):
    """Only the newest KEEP results are kept, and what was printed for them."""
    from nagle_lint.report import Result

    folder = str(tmp_path / "c")
    c = cache.Cache(folder)
    for n in range(cache.KEEP + 3):
        digest = f"{n:064x}"
        c.store(digest, Result([], 1))
        c.keep_printed(digest, "text-0000", 0, "report", "")
        os.utime(os.path.join(folder, f"{digest}.json"), ns=(n * 10**9, n * 10**9))
    c.store(f"{99:064x}", Result([], 1))
    names = os.listdir(folder)
    kept = {n.split(".")[0] for n in names if n.endswith(".json")}
    assert len(kept) == cache.KEEP and f"{99:064x}" in kept and f"{0:064x}" not in kept
    assert {n.split("-")[0] for n in names if n.endswith(".out")} == kept - {f"{99:064x}"}
    assert c.replay(f"{cache.KEEP + 2:064x}", "text-0000") == (0, "report", "")
    assert c.replay(f"{cache.KEEP + 2:064x}", "json-0000") is None
    assert c.warning is None


def test_the_key_is_the_same_with_hashlib(tmp_path, monkeypatch):
    """Where the interpreter has no BLAKE2 of its own, hashlib's gives the same key."""
    from nagle_lint.config import Settings

    f = tmp_path / "a.py"
    f.write_text("x = 1\n")
    own = cache.key([str(f)], Settings())
    monkeypatch.setitem(sys.modules, "_blake2", None)  # importing it now fails
    assert cache.key([str(f)], Settings()) == own


def test_a_broken_cache_entry_is_ignored(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes(SPLIT)
    lint(capsys, "app.py")
    for entry in (tmp_path / ".nagle_lint_cache").glob("*.json"):
        entry.write_text("{not json")
    code, out, err = lint(capsys, "--format", "json", "app.py")  # printed another way: the result is loaded
    assert code == 1 and '"NGL001"' in out and "Traceback" not in err


def test_no_cache_writes_nothing_and_clean_removes_the_cache(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes(SPLIT)
    assert lint(capsys, "--no-cache", "app.py")[0] == 1
    assert not (tmp_path / ".nagle_lint_cache").exists()
    lint(capsys, "app.py")
    assert (tmp_path / ".nagle_lint_cache" / "CACHEDIR.TAG").is_file()
    code, out, _ = lint(capsys, "clean")
    assert code == 0 and "removed" in out
    assert not (tmp_path / ".nagle_lint_cache").exists()
    assert lint(capsys, "clean")[1].strip() == "no cache to remove"


def test_clean_leaves_a_folder_that_is_not_ours(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".nagle_lint_cache").mkdir()
    (tmp_path / ".nagle_lint_cache" / "keep.txt").write_text("mine")
    lint(capsys, "clean")
    assert (tmp_path / ".nagle_lint_cache" / "keep.txt").is_file()


def test_the_cache_holds_json_only(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes(SPLIT)
    lint(capsys, "app.py")
    for entry in (tmp_path / ".nagle_lint_cache").iterdir():
        if entry.suffix == ".json":
            json.loads(entry.read_text())  # loads as JSON: no pickles to execute


def test_stdin_is_linted_as_the_named_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SPLIT)))
    code, out, _ = lint(capsys, "--stdin-filename", "src/unsaved.py")
    assert code == 1
    assert out.startswith("src/unsaved.py:7:5: NGL001 ")
    assert not (tmp_path / "src").exists()  # nothing read from or written to disk
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(JOINED)))
    assert lint(capsys, "--stdin-filename", "src/unsaved.py")[0] == 0


def test_stdin_usage_errors(capsys):
    code, _, err = lint(capsys, "--stdin-filename", "notes.txt")
    assert code == 2 and "not a Python, Java or C file name" in err
    code, _, err = lint(capsys, "--stdin-filename", "a.py", "b.py")
    assert code == 2 and "give no PATH" in err


def test_the_key_follows_settings_and_files(tmp_path):
    from nagle_lint.config import Settings

    f = tmp_path / "a.py"
    f.write_text("x = 1\n")
    k1 = cache.key([str(f)], Settings())
    assert k1 == cache.key([str(f)], Settings())
    assert k1 != cache.key([str(f)], Settings(min_confidence="low"))
    f.write_text("x = 22\n")
    assert k1 != cache.key([str(f)], Settings())


def test_a_write_that_fails_leaves_nothing_behind(tmp_path, monkeypatch):
    """An entry is written whole or not at all: a write that fails half-way
    leaves no half-written file, and the run goes on."""
    from nagle_lint.report import Result

    folder = tmp_path / "c"
    c = cache.Cache(str(folder))
    digest = f"{7:064x}"
    c.store(digest, Result([], 1))
    real_write = os.write

    def failing(fd, data):
        real_write(fd, bytes(data[:3]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", failing)
    c.keep_printed(digest, "text-0000", 0, "report", "")  # fails, quietly
    c.store(f"{8:064x}", Result([], 2))
    monkeypatch.undo()
    assert sorted(p.name for p in folder.iterdir()) == sorted([".gitignore", "CACHEDIR.TAG", f"{digest}.json"])
    assert c.replay(digest, "text-0000") is None and c.load(f"{8:064x}") is None
    assert c.load(digest).files == 1


def test_one_cache_per_project_and_clean_removes_every_one(tmp_path, capsys, monkeypatch):
    """Runs from any folder of a git work tree share one cache at its top;
    `clean` also removes the caches that runs from subfolders left before."""
    import subprocess

    monkeypatch.delenv(cache.ENV, raising=False)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "sub" / "deeper" / "app.py").write_bytes(SPLIT)
    for folder in (tmp_path / "sub", tmp_path / "sub" / "deeper", tmp_path):
        monkeypatch.chdir(folder)
        assert lint(capsys, ".")[0] == 1
    assert [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob(".nagle_lint_cache")] == [".nagle_lint_cache"]
    # What older runs left in subfolders (and a folder of that name that is not a cache).
    monkeypatch.chdir(tmp_path / "sub")
    lint(capsys, "--cache-dir", ".nagle_lint_cache", ".")
    (tmp_path / "sub" / "deeper" / ".nagle_lint_cache").mkdir()
    code, out, _ = lint(capsys, "clean")
    assert code == 0 and out.startswith("removed ")
    assert [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob(".nagle_lint_cache")] == \
        ["sub/deeper/.nagle_lint_cache"]


def test_clean_removes_the_chosen_cache(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes(SPLIT)
    elsewhere = tmp_path / "elsewhere"
    monkeypatch.setenv(cache.ENV, str(elsewhere))
    lint(capsys, "app.py")
    assert (elsewhere / "CACHEDIR.TAG").is_file() and not (tmp_path / ".nagle_lint_cache").exists()
    assert lint(capsys, "clean")[1] == f"removed {elsewhere}\n"
    monkeypatch.delenv(cache.ENV)
    lint(capsys, "--cache-dir", "mine", "app.py")
    assert lint(capsys, "clean")[1] == "no cache to remove\n"
    assert lint(capsys, "clean", "--cache-dir", "mine")[1] == "removed mine\n"
