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
    assert first[0] == 1 and "NGL001" in first[1]
    entries = [e for e in os.listdir(tmp_path / ".nagle_lint_cache") if e.endswith(".json")]
    assert len(entries) == 1
    assert lint(capsys, "app.py")[:2] == first[:2]  # the stored result, same bytes

    # The stored result is what is printed: tampering with it shows through...
    path = tmp_path / ".nagle_lint_cache" / entries[0]
    data = json.loads(path.read_text())
    data["findings"][0]["message"] = "from the cache"
    path.write_text(json.dumps(data))
    assert "from the cache" in lint(capsys, "app.py")[1]
    # ...until the file changes (size and time are part of the key).
    (tmp_path / "app.py").write_bytes(JOINED)
    assert lint(capsys, "app.py")[0] == 0


def test_a_warm_run_loads_neither_parser_nor_dataclasses(tmp_path):
    """What a run served from the cache imports: no grammar, no model, no
    dataclasses (their import alone was a sixth of such a run)."""
    import subprocess

    (tmp_path / "app.py").write_bytes(SPLIT)
    command = [sys.executable, "-X", "importtime", "-m", "nagle_lint", "--format", "json", "app.py"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, check=False)
    warm = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert warm.returncode == 1 and '"NGL001"' in warm.stdout
    loaded = {line.split("|")[-1].strip() for line in warm.stderr.splitlines() if line.startswith("import time:")}
    assert "nagle_lint.findings" in loaded
    assert not loaded & {"dataclasses", "tree_sitter", "nagle_lint.model", "nagle_lint.lint"}


def test_the_key_is_the_same_with_hashlib(tmp_path, monkeypatch):
    """Where the interpreter has no SHA-256 of its own, hashlib's gives the same key."""
    from nagle_lint.config import Settings

    f = tmp_path / "a.py"
    f.write_text("x = 1\n")
    own = cache.key([str(f)], Settings())
    monkeypatch.setitem(sys.modules, "_sha2", None)  # importing either now fails
    monkeypatch.setitem(sys.modules, "_sha256", None)
    assert cache.key([str(f)], Settings()) == own


def test_a_broken_cache_entry_is_ignored(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "app.py").write_bytes(SPLIT)
    lint(capsys, "app.py")
    for entry in (tmp_path / ".nagle_lint_cache").glob("*.json"):
        entry.write_text("{not json")
    code, out, err = lint(capsys, "app.py")
    assert code == 1 and "NGL001" in out and "Traceback" not in err


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
