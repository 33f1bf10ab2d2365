"""Fixes: every fixture that gets one has its fixed text kept as a golden
file under tests/fixed/ (the fixture's path under fixtures/); the fixed
file compiles where the fixture does, lints without what was fixed, and a
second --fix changes nothing.  NAGLE_LINT_UPDATE_GOLDEN=1 writes them anew.
"""

from __future__ import annotations

import os
import py_compile
import subprocess
from pathlib import Path

import pytest

from lsp_support import require_program
from test_fixtures import FIXTURES, ROOT, settings_for
from nagle_lint.fixing import fix_file
from nagle_lint.fixes import render
from nagle_lint.runner import lint_file

GOLDEN = ROOT / "tests" / "fixed"
UPDATE = os.environ.get("NAGLE_LINT_UPDATE_GOLDEN") == "1"


def golden_of(path: Path) -> Path:
    return GOLDEN / path.relative_to(ROOT / "fixtures")


def shown(path: Path, data: bytes):
    settings = settings_for(data.decode("utf-8", "replace"))
    return [f for f in lint_file(str(path), settings, data=data)[1] if f.suppressed is None], settings


def fixed(path: Path):
    """The fixture with every fix applied (the unsafe ones too), or None where none applies."""
    findings, settings = shown(path, path.read_bytes())
    result = fix_file(str(path), findings, settings, unsafe=True)
    return result if result.changed else None


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_golden(path: Path):
    result, golden = fixed(path), golden_of(path)
    if UPDATE:
        if result is not None:
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_bytes(result.after)
        elif golden.exists():
            golden.unlink()
    if result is None:
        assert not golden.exists(), f"{golden} is kept, but no fix applies to the fixture any more"
        return
    assert golden.exists(), f"a fix applies to {path.name}: keep what it gives in {golden} (NAGLE_LINT_UPDATE_GOLDEN=1)"
    assert result.after.decode() == golden.read_text(encoding="utf-8")


GOLDENS = sorted(p for p in GOLDEN.rglob("*") if p.is_file())


def original_of(golden: Path) -> Path:
    return ROOT / "fixtures" / golden.relative_to(GOLDEN)


def test_goldens_exist():
    assert len([g for g in GOLDENS if g.suffix == ".py"]) >= 10
    assert len([g for g in GOLDENS if g.suffix == ".c"]) >= 10
    assert len([g for g in GOLDENS if g.suffix == ".java"]) >= 10


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_fixed_lints_without_what_was_fixed(golden: Path):
    """Fewer findings than the fixture had, none of them with a fix left:
    a second --fix changes nothing."""
    before, _ = shown(original_of(golden), original_of(golden).read_bytes())
    after, settings = shown(golden, golden.read_bytes())
    assert len(after) < len(before)
    assert render(str(golden), golden.read_bytes(), after) == []
    assert not fix_file(str(golden), after, settings, unsafe=True).changed


def test_fixed_python_compiles(tmp_path):
    for golden in (g for g in GOLDENS if g.suffix == ".py"):
        py_compile.compile(str(golden), cfile=str(tmp_path / "out.pyc"), doraise=True)


def _compiles(commands) -> list[bool]:
    """Whether each command succeeds; run side by side."""
    procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for c in commands]
    return [p.wait(timeout=300) == 0 for p in procs]


def test_fixed_c_compiles():
    """gcc -fsyntax-only takes every fixed C file whose fixture it takes (with -Werror: no new warning either)."""
    gcc = require_program("gcc", "apt-get install gcc")
    goldens = [g for g in GOLDENS if g.suffix == ".c"]
    flags = [gcc, "-std=gnu11", "-fsyntax-only", "-Wall", "-Werror"]
    originals = _compiles([flags + [str(original_of(g))] for g in goldens])
    checked = [g for g, ok in zip(goldens, originals) if ok]
    assert len(checked) >= 5
    results = _compiles([flags + [str(g)] for g in checked])
    assert [g.name for g, ok in zip(checked, results) if not ok] == []


def test_fixed_java_compiles(tmp_path):
    """javac takes every fixed Java file whose fixture it takes."""
    java = require_program("java", "apt-get install default-jdk-headless")
    require_program("javac", "apt-get install default-jdk-headless")
    goldens = [g for g in GOLDENS if g.suffix == ".java"]
    sources = [str(original_of(g)) for g in goldens] + [str(g) for g in goldens]
    out = subprocess.run([java, str(ROOT / "tests" / "CompileEach.java"), str(tmp_path), *sources],
                         capture_output=True, text=True, timeout=300, check=True).stdout.splitlines()
    ok = {line.split(" ", 1)[1] for line in out if line.startswith("ok ")}
    assert len(out) == len(sources)
    checked = [g for g in goldens if str(original_of(g)) in ok]
    assert len(checked) >= 5
    assert [g.name for g in checked if str(g) not in ok] == []


# --- the command line --------------------------------------------------------

from nagle_lint.cli import main  # noqa: E402
from nagle_lint.fixes import Edit, Fix, apply, decode, encode  # noqa: E402

SPLIT_PY = b"""import socket

HEAD = b"PUT "
BODY = b"x" * 100


def put(sock):
    sock.sendall(HEAD)
    sock.sendall(BODY)
    return sock.recv(4)


def put_text(sock, text):
    sock.sendall(HEAD)
    sock.sendall(text)
    return sock.recv(4)
"""
SPLIT_C = b"""#include <sys/socket.h>
#include <unistd.h>

void one(const char *a, const char *b, char *r) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    write(fd, a, 4);
    write(fd, b, 8);
    read(fd, r, 4);
}

void two(const char *a, const char *b, char *r) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    write(fd, a, 4);
    write(fd, b, 8);
    read(fd, r, 4);
}
"""


def lint(tmp_path, capsys, *args):
    status = main(["--no-cache", "--format", "concise", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_fix_applies_safe_fixes_only_and_reports_what_is_left(tmp_path, capsys):
    src = tmp_path / "client.py"
    src.write_bytes(SPLIT_PY)
    status, out, err = lint(tmp_path, capsys, "--fix", "--show-fixes", str(src))
    text = src.read_text()
    assert "sock.sendall(HEAD + BODY)" in text and "sock.sendall(text)" in text  # text may be str: unsafe
    assert status == 1 and out.count("NGL001") == 1 and ":14:5:" in out  # the unsafe one is still reported
    assert "NGL001 join the two sendall() calls into one: sock.sendall(HEAD + BODY) (safe)" in err
    assert "Fixed 1 finding." in err and "1 more fix available with --unsafe-fixes" in err
    status, out, err = lint(tmp_path, capsys, "--fix", "--unsafe-fixes", str(src))
    assert status == 0 and "sock.sendall(HEAD + text)" in src.read_text()


def test_diff_writes_nothing_and_applies_with_git(tmp_path, capsys, monkeypatch):
    git = require_program("git", "apt-get install git")
    (tmp_path / "a.py").write_bytes(SPLIT_PY)
    (tmp_path / "b.c").write_bytes(SPLIT_C)
    monkeypatch.chdir(tmp_path)
    status, out, err = lint(tmp_path, capsys, "--diff", "--unsafe-fixes", ".")
    assert status == 1 and "Would fix 4 findings in 2 files." in err
    assert (tmp_path / "a.py").read_bytes() == SPLIT_PY and (tmp_path / "b.c").read_bytes() == SPLIT_C
    assert out.startswith("--- a/a.py\n+++ b/a.py\n") and "+++ b/b.c" in out
    (tmp_path / "fix.patch").write_text(out)
    subprocess.run([git, "apply", "fix.patch"], cwd=tmp_path, check=True)
    patched = {p: (tmp_path / p).read_bytes() for p in ("a.py", "b.c")}
    assert lint(tmp_path, capsys, "--fix", "--unsafe-fixes", ".")[0] == 0
    assert patched == {p: (tmp_path / p).read_bytes() for p in ("a.py", "b.c")}
    assert lint(tmp_path, capsys, "--diff", "--unsafe-fixes", ".")[:2] == (0, "")


def test_conflicting_fixes_are_applied_in_later_passes(tmp_path, capsys):
    """Both writev fixes want to add the include at one place: the second waits for the next pass."""
    src = tmp_path / "b.c"
    src.write_bytes(SPLIT_C)
    status, out, err = lint(tmp_path, capsys, "--fix", "--unsafe-fixes", "--show-fixes", str(src))
    text = src.read_text()
    assert status == 0 and "Fixed 2 findings." in err
    assert text.count("#include <sys/uio.h>") == 1 and text.count("writev(fd, iov, 2);") == 2
    assert "write(fd" not in text


def test_a_file_without_fixes_is_not_rewritten(tmp_path, capsys):
    fixable, other = tmp_path / "a.py", tmp_path / "b.py"
    fixable.write_bytes(SPLIT_PY)
    other.write_bytes(SPLIT_PY.replace(b"HEAD)\n    sock.sendall(BODY)", b"HEAD + BODY)"))
    before = os.stat(other)
    lint(tmp_path, capsys, "--fix", str(tmp_path))
    after = os.stat(other)
    assert (before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns)
    assert os.stat(fixable).st_ino != before.st_ino or fixable.read_bytes() != SPLIT_PY


@pytest.mark.parametrize("raw", [
    b"\xef\xbb\xbf" + SPLIT_PY.replace(b"\n", b"\r\n"),
    "# d\u00e9j\u00e0\n".encode("utf-16") + SPLIT_PY.decode().encode("utf-16")[2:],
    SPLIT_PY.replace(b"    ", b"\t"),
], ids=["bom-crlf", "utf-16", "tabs"])
def test_fix_keeps_encoding_line_endings_and_indentation(tmp_path, capsys, raw):
    src = tmp_path / "client.py"
    src.write_bytes(raw)
    os.chmod(src, 0o640)
    lint(tmp_path, capsys, "--fix", str(src))
    text, how = decode(src.read_bytes())
    assert src.read_bytes()[:3] == raw[:3] and encode(text, how) == src.read_bytes()
    assert os.stat(src).st_mode & 0o777 == 0o640
    expected, _ = decode(raw)
    indent = b"\t" if b"\tsock" in expected else b"    "
    newline = b"\r\n" if b"\r\n" in expected else b"\n"
    assert expected.replace(indent + b"sock.sendall(HEAD)" + newline + indent + b"sock.sendall(BODY)",
                            indent + b"sock.sendall(HEAD + BODY)") == text


def test_fix_options_need_fix_or_diff(capsys):
    assert main(["--unsafe-fixes", "."]) == 2
    assert "--unsafe-fixes goes with --fix or --diff" in capsys.readouterr().err


def test_apply_takes_no_overlapping_fix():
    data = b"0123456789"
    first = Fix("a", "safe", (Edit(2, 4, "x"),))
    overlapping = Fix("b", "safe", (Edit(3, 5, "y"), Edit(8, 9, "z")))
    same_place = Fix("c", "safe", (Edit(2, 2, "w"),))
    apart = Fix("d", "safe", (Edit(6, 6, "v\n"),))
    out, applied = apply(data, [first, overlapping, same_place, apart], b"\r\n")
    assert applied == [first, apart] and out == b"01x45v\r\n6789"


def test_no_fix_where_it_would_break_the_line(tmp_path, capsys):
    """Two sends on one line (`a; b`): deleting the first would leave a stray `;`."""
    src = tmp_path / "client.py"
    src.write_bytes(SPLIT_PY.replace(b"sock.sendall(HEAD)\n    sock.sendall(BODY)", b"sock.sendall(HEAD); sock.sendall(BODY)"))
    before = src.read_bytes()
    status, out, err = lint(tmp_path, capsys, "--fix", "--unsafe-fixes", str(src))
    assert status == 1 and src.read_bytes().count(b"sock.sendall(HEAD); sock.sendall(BODY)") == 1
    assert before.replace(b"sock.sendall(text)", b"sock.sendall(HEAD + text)").replace(
        b"    sock.sendall(HEAD)\n    sock.sendall(HEAD + text)", b"    sock.sendall(HEAD + text)") == src.read_bytes()


# --- --fix fixes only what would be reported ---------------------------------


def test_fix_leaves_the_baseline_alone_in_every_pass(tmp_path, capsys, monkeypatch):
    """The baseline holds `one`'s split: --fix rewrites only `two`'s, also in
    the pass after the first (where `one`'s finding comes back from the
    file linted again)."""
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "b.c"
    first_only = SPLIT_C[:SPLIT_C.index(b"void two")]
    src.write_bytes(first_only)
    assert lint(tmp_path, capsys, "--write-baseline", "base.json", "b.c")[0] == 0
    src.write_bytes(SPLIT_C)
    status, out, err = lint(tmp_path, capsys, "--fix", "--unsafe-fixes", "--baseline", "base.json", "b.c")
    text = src.read_text()
    assert status == 0 and "Fixed 1 finding." in err
    assert text.count("writev(fd, iov, 2);") == 1 and text.index("writev") > text.index("void two")
    assert text[:text.index("void two")].count("write(fd") == 2


def test_fix_with_diff_base_fixes_only_the_changed_lines(tmp_path, capsys, monkeypatch):
    git = require_program("git", "apt-get install git")
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "client.py"
    src.write_bytes(SPLIT_PY[:SPLIT_PY.index(b"def put_text")])
    for command in (["init", "-q"], ["add", "client.py"],
                    ["-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "put"]):
        subprocess.run([git, *command], cwd=tmp_path, check=True)
    src.write_bytes(SPLIT_PY)
    status, out, err = lint(tmp_path, capsys, "--diff", "--unsafe-fixes", "--diff-base", "HEAD", "client.py")
    assert status == 1 and "+    sock.sendall(HEAD + text)" in out and "HEAD + BODY" not in out
    status, out, err = lint(tmp_path, capsys, "--fix", "--unsafe-fixes", "--diff-base", "HEAD", "client.py")
    text = src.read_text()
    assert status == 0 and "sock.sendall(HEAD + text)" in text and "sock.sendall(BODY)" in text


CHECKED_C = b"""#include <sys/socket.h>
#include <unistd.h>

int put(const char *a, const char *b, char *r) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (write(fd, a, 4) != 4)
        return -1;
    if (write(fd, b, 8) != 8)
        return -1;
    read(fd, r, 4);
    return 0;
}
"""


@pytest.mark.parametrize("second, joined", [
    (b"if (write(fd, b, 8) != 8)\n        return -1;", b"if (writev(fd, iov, 2) != (4 + 8))"),  # each against its length
    (b"if (write(fd, b, 8) < 0)\n        return -1;", None),  # tested otherwise: no one test says what both said
    (b"write(fd, b, 8);", None),  # one tested, one not
])
def test_c_writev_fix_joins_tests_only_when_alike(tmp_path, capsys, second, joined):
    src = tmp_path / "put.c"
    src.write_bytes(CHECKED_C.replace(b"if (write(fd, b, 8) != 8)\n        return -1;", second))
    status, out, _ = lint(tmp_path, capsys, "--fix", "--unsafe-fixes", str(src))
    text = src.read_bytes()
    if joined is None:
        assert status == 1 and "NGL001" in out and b"writev" not in text  # reported, left as it is
    else:
        assert status == 0 and joined in text and b"write(fd" not in text
