"""No input crashes the linter, hangs it or loses the other files' findings,
and nothing it reads can make it do anything but read.

Each odd input has its documented outcome: a finding where the code allows
one, otherwise a one-line warning on standard error (and an entry in
`Result.problems`, which SARIF shows as a tool notification) - and every other
file is still linted.  Exit code 2 only when nothing at all could be linted."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from nagle_lint.config import Settings
from nagle_lint.languages import frontend
from nagle_lint.runner import lint_file, read_file

from test_cli import SPLIT, SPLIT_LINE, finding_lines, run, write

ROOT = Path(__file__).resolve().parent.parent

C_SPLIT = """\
#include <sys/socket.h>

int query(const char *h, const char *b, char *r)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    send(fd, h, 4, 0);
    send(fd, b, 4, 0);
    return recv(fd, r, 4, 0);
}
"""

JAVA_SPLIT = """\
import java.net.Socket;

class Query {
    int query(Socket s, byte[] h, byte[] b) throws Exception {
        var out = s.getOutputStream();
        out.write(h);
        out.write(b);
        return s.getInputStream().read();
    }
}
"""

# (file name, source, the second send's text); that send is on line 7 in each.
SPLITS = {
    "python": ("split.py", SPLIT, "sock.sendall(body)"),
    "c": ("split.c", C_SPLIT, "send(fd, b, 4, 0)"),
    "java": ("Split.java", JAVA_SPLIT, "out.write(b)"),
}
LANGS = list(SPLITS)


def col_of(source: str, needle: str) -> tuple[int, int]:
    """1-based (line, column in characters) of `needle` in `source`."""
    for number, line in enumerate(source.split("\n"), start=1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def lint(capsys, *argv):
    """The CLI without the result cache (these tests are about reading files)."""
    return run(capsys, "--no-cache", *argv)


def warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("nagle-lint: warning: ")]


def assert_clean_stderr(err: str) -> None:
    assert "Traceback" not in err and "internal error" not in err, err


@contextmanager
def deadline(seconds: int):
    """Fail instead of hanging (a FIFO opened the wrong way blocks forever)."""
    def expired(*_):
        raise AssertionError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- encodings, line endings, columns -----------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_baseline_positions(capsys, isolated, lang):
    name, source, needle = SPLITS[lang]
    write(isolated, name, source)
    code, out, err = lint(capsys, name)
    assert code == 1, err
    line, col = col_of(source, needle)
    assert line == SPLIT_LINE
    assert out.startswith(f"{name}:{line}:{col}: NGL001 ")


@pytest.mark.parametrize("lang", LANGS)
def test_invalid_utf8_and_mixed_encodings(capsys, isolated, lang):
    """Latin-1 and cp1252 bytes, a truncated UTF-8 sequence and a lone
    continuation byte: the file is analysed; invalid bytes count as one
    replacement character each, as Python decodes them."""
    name, source, needle = SPLITS[lang]
    comment = b"#" if lang == "python" else b"//"
    data = source.encode()
    data = data.replace(b"\n\n", b"\n" + comment + b" caf\xe9 \x93quoted\x94 \xe2\x82 \x80\n", 1)
    noisy = b"/* \xff\xfe */ " if lang != "python" else b"_ = b'\xff\xfe'; "
    data = data.replace(needle.encode(), noisy + needle.encode())
    (isolated / name).write_bytes(data)
    code, out, err = lint(capsys, name)
    assert code == 1, err
    line = data.split(b"\n").index(next(x for x in data.split(b"\n") if needle.encode() in x)) + 1
    raw = data.split(b"\n")[line - 1]
    col = len(raw[:raw.index(needle.encode())].decode("utf-8", "replace")) + 1
    assert out.startswith(f"{name}:{line}:{col}: NGL001 "), out
    assert not warnings(err), err


@pytest.mark.parametrize("lang", LANGS)
def test_utf8_bom_is_not_a_column(capsys, isolated, lang):
    name, source, needle = SPLITS[lang]
    (isolated / name).write_bytes(b"\xef\xbb\xbf" + source.encode())
    code, out, _ = lint(capsys, name)
    line, col = col_of(source, needle)
    assert (code, finding_lines(out)) == (1, [(name, line, "NGL001")])
    assert out.startswith(f"{name}:{line}:{col}: ")


def test_utf8_bom_before_a_finding_on_the_first_line(capsys, isolated):
    one_line = ("import socket; s = socket.create_connection(('h', 1)); s.sendall(b'a'); "
                "s.sendall(b'b'); s.recv(1)\n")
    (isolated / "plain.py").write_bytes(one_line.encode())
    (isolated / "bom.py").write_bytes(b"\xef\xbb\xbf" + one_line.encode())
    code, out, _ = lint(capsys, "plain.py", "bom.py")
    col = one_line.index("s.sendall(b'b')") + 1
    assert code == 1
    assert sorted(line.split(": ")[0] for line in out.splitlines()) == [f"bom.py:1:{col}", f"plain.py:1:{col}"]


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"])
@pytest.mark.parametrize("lang", LANGS)
def test_utf16_and_utf32_with_a_bom_are_read_as_text(capsys, isolated, lang, codec):
    """Such files are full of NUL bytes; with a byte-order mark they are text,
    re-encoded before parsing, and positions are the same as in UTF-8."""
    name, source, needle = SPLITS[lang]
    bom = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff", "utf-32-be": b"\0\0\xfe\xff"}.get(codec, b"")
    (isolated / name).write_bytes(bom + source.encode(codec))
    code, out, err = lint(capsys, name)
    line, col = col_of(source, needle)
    assert code == 1, err
    assert out.startswith(f"{name}:{line}:{col}: NGL001 ")


def test_utf16_without_a_bom_is_binary(capsys, isolated):
    (isolated / "wide.py").write_bytes(SPLIT.encode("utf-16-le"))
    code, out, err = lint(capsys, "wide.py")
    assert (code, out) == (2, "")
    assert warnings(err) == ["nagle-lint: warning: wide.py: binary file (NUL bytes); skipped"]


def test_a_bom_that_lies(capsys, isolated):
    (isolated / "liar.c").write_bytes(b"\xff\xfe" + b"\x00\xd8")  # a lone surrogate
    write(isolated, "ok.py", SPLIT)
    code, out, err = lint(capsys, "liar.c", "ok.py")
    assert code == 1 and finding_lines(out) == [("ok.py", SPLIT_LINE, "NGL001")]
    assert warnings(err) == ["nagle-lint: warning: liar.c: starts with a UTF-16 byte-order mark but is not "
                             "UTF-16 text; skipped"]


@pytest.mark.parametrize("lang", LANGS)
def test_crlf_line_endings(capsys, isolated, lang):
    name, source, needle = SPLITS[lang]
    (isolated / name).write_bytes(source.replace("\n", "\r\n").encode())
    code, out, err = lint(capsys, name)
    line, col = col_of(source, needle)
    assert code == 1 and out.startswith(f"{name}:{line}:{col}: NGL001 "), out
    assert not warnings(err)


@pytest.mark.parametrize("lang", ["c", "java"])
def test_lone_cr_line_endings_count_as_one_line(capsys, isolated, lang):
    """Lines are counted at LF, as git, diffs and code-scanning views count
    them: a file ending its lines with a lone CR (classic Mac OS) is one line,
    still analysed, the column counting from its start."""
    name, source, needle = SPLITS[lang]
    text = source.replace("\n", "\r")
    (isolated / name).write_bytes(text.encode())
    code, out, _ = lint(capsys, name)
    assert code == 1
    assert out.startswith(f"{name}:1:{text.index(needle) + 1}: NGL001 "), out


def test_lone_cr_line_endings_in_python(capsys, isolated):
    """Python's grammar needs LF: the file is read and counted, and the
    syntax errors are reported; nothing crashes."""
    (isolated / "mac.py").write_bytes(SPLIT.replace("\n", "\r").encode())
    code, out, err = lint(capsys, "--verbose", "mac.py")
    assert (code, out) == (0, "")
    assert "No findings in 1 file" in err
    assert any("syntax error" in w for w in warnings(err)), err


WIDE = {
    # Tabs, CJK and characters outside the Basic Multilingual Plane (one code
    # point, two UTF-16 code units) before the finding on its line.
    "python": ("\t\ttag = '中文😀🚀'; ", "    ", "sock.sendall(body)"),
    "c": ("/*\t中文😀🚀\t*/ ", "    ", "send(fd, b, 4, 0)"),
    "java": ("/*\t中文😀🚀\t*/ ", "        ", "out.write(b)"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_tabs_and_wide_characters_before_a_finding(capsys, isolated, lang):
    """Columns are 1-based Unicode code points in text and JSON output (a tab
    is one); SARIF counts UTF-16 code units, as it declares."""
    name, source, needle = SPLITS[lang]
    prefix, indent, _ = WIDE[lang]
    if lang == "python":  # the statement keeps its indentation; the tabs go inside the string
        prefix = "tag = '\t\t中文😀🚀'; "
    source = source.replace(indent + needle, indent + prefix + needle)
    write(isolated, name, source)
    line, col = col_of(source, needle)
    astral = sum(1 for ch in source.split("\n")[line - 1][:col - 1] if ord(ch) > 0xFFFF)
    assert astral == 2

    code, out, err = lint(capsys, name)
    assert code == 1, err
    assert out.startswith(f"{name}:{line}:{col}: NGL001 "), out

    code, out, _ = lint(capsys, "--format", "json", name)
    finding = json.loads(out)["findings"][0]
    assert (finding["line"], finding["column"]) == (line, col)

    code, out, _ = lint(capsys, "--format", "sarif", name)
    region = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (line, col + astral)


# --- odd bytes ------------------------------------------------------------------------


def test_nul_bytes_near_the_start_mean_binary(capsys, isolated):
    (isolated / "blob.py").write_bytes(b"import socket\n\0\0\0" + SPLIT.encode())
    write(isolated, "ok.py", SPLIT)
    code, out, err = lint(capsys, "blob.py", "ok.py")
    assert code == 1 and finding_lines(out) == [("ok.py", SPLIT_LINE, "NGL001")]
    assert warnings(err) == ["nagle-lint: warning: blob.py: binary file (NUL bytes); skipped"]
    assert "in 1 file" in err


@pytest.mark.parametrize("lang", LANGS)
def test_a_stray_nul_further_on_reads_as_a_space(capsys, isolated, lang):
    """Past the first 8 kB (where git looks for NUL too), a NUL byte is read as
    a space: a C block comment holding one no longer swallows the file."""
    name, source, needle = SPLITS[lang]
    pad = (b"#" + b"x" * 9000 + b"\0\n") if lang == "python" else (b"/*" + b"x" * 9000 + b"\0*/\n")
    (isolated / name).write_bytes(pad + source.encode())
    code, out, err = lint(capsys, name)
    line, col = col_of(source, needle)
    assert code == 1, err
    assert out.startswith(f"{name}:{line + 1}:{col}: NGL001 "), out


def test_binary_files_with_a_source_name(capsys, isolated):
    (isolated / "elf.c").write_bytes(b"\x7fELF\x02\x01\x01\0" + bytes(range(256)) * 64)
    (isolated / "noise.c").write_bytes(bytes((i * 7919) % 128 + 128 for i in range(50_000)))  # no NUL at all
    write(isolated, "ok.c", C_SPLIT)
    code, out, err = lint(capsys, "--verbose", ".")
    assert code == 1
    assert finding_lines(out) == [("./ok.c", SPLIT_LINE, "NGL001")]
    assert "nagle-lint: warning: ./elf.c: binary file (NUL bytes); skipped" in warnings(err)
    assert "in 2 files" in err  # noise.c is read as (broken) text
    assert_clean_stderr(err)


def test_a_method_closed_too_early_is_linted_in_time(capsys, isolated):
    """A stray `}` ends a method before its statements (and an import comes
    before the file's first comment), which the parser then reads as code of no
    named function: linted at once, not left to the time budget (a search for a
    function's empty name never moved on)."""
    source = (ROOT / "fixtures" / "java" / "relay_loop.java").read_text()
    broken = source.replace("throws IOException {\n", "throws IOException {\n        }\n", 1)
    (isolated / "Pump.java").write_text("import java.io.IOException;\n" + broken)
    with deadline(30):
        code, out, err = lint(capsys, "Pump.java")
    assert_clean_stderr(err)
    assert code == 0 and not any("time budget" in w for w in warnings(err)), err


def test_an_empty_file(capsys, isolated):
    (isolated / "empty.c").write_bytes(b"")
    (isolated / "blank.py").write_bytes(b"\n\n   \n\t\n")
    code, out, err = lint(capsys, "empty.c", "blank.py")
    assert (code, out) == (0, "")
    assert not warnings(err) and "No findings in 2 files" in err


def test_a_20_mb_generated_file_is_reported_not_linted(capsys, isolated):
    row = b"    { 0x%08x, 0x%08x, \"generated entry\" },\n"
    body = b"".join(row % (i, i * 31) for i in range(400_000))
    (isolated / "table.c").write_bytes(b"static const struct entry table[] = {\n" + body + b"};\n")
    assert (isolated / "table.c").stat().st_size > 20_000_000
    write(isolated, "ok.c", C_SPLIT)
    start = time.monotonic()
    code, out, err = lint(capsys, ".")
    assert time.monotonic() - start < 10
    assert code == 1 and finding_lines(out) == [("./ok.c", SPLIT_LINE, "NGL001")]
    size = (isolated / "table.c").stat().st_size / 1e6
    assert warnings(err) == [f"nagle-lint: warning: ./table.c: too big to lint ({size:.1f} MB; the limit is 1.0 MB, "
                             "see max-file-size); skipped"]
    assert "in 1 file" in err


def test_a_file_that_grows_past_the_limit_while_read(isolated, monkeypatch):
    """The size is checked on the open file and again while reading."""
    path = write(isolated, "grow.py", SPLIT)
    real_fstat = os.fstat

    def shrunk(fd):
        st = real_fstat(fd)
        return os.stat_result((st.st_mode, st.st_ino, st.st_dev, st.st_nlink, st.st_uid, st.st_gid, 10,
                               st.st_atime, st.st_mtime, st.st_ctime))

    monkeypatch.setattr(os, "fstat", shrunk)
    prepared, problem = read_file(str(path), Settings(max_file_size=100))
    assert prepared is None and problem.startswith("too big to lint (over 1")


# --- deep nesting ------------------------------------------------------------------------

DEPTH = 10_000


def deep(lang: str, kind: str) -> bytes:
    """A function that sends, nested DEPTH levels deep, then the split function."""
    n = DEPTH
    if lang == "python":
        inner = {"parens": b"x = " + b"(" * n + b"1" + b")" * n,
                 "calls": b"x = " + b"f(" * n + b")" * n,
                 "lists": b"x = " + b"[" * n + b"]" * n}[kind]
        return b"def deep(sock):\n    sock.sendall(b'a')\n    " + inner + b"\n\n\n" + SPLIT.encode()
    if lang == "c":
        inner = {"blocks": b"{" * n + b"send(fd, b, 4, 0);" + b"}" * n,
                 "ifs": b"if (x) " * n + b"send(fd, b, 4, 0);",
                 "parens": b"send(fd, b, 4, 0); x = " + b"(" * n + b"1" + b")" * n + b";"}[kind]
        return b"int deep(int fd, const char *b)\n{\n    " + inner + b"\n    return 0;\n}\n" + C_SPLIT.encode()
    inner = {"blocks": b"{" * n + b"out.write(b);" + b"}" * n,
             "ifs": b"if (x) " * n + b"out.write(b);",
             "parens": b"out.write(b); int x = " + b"(" * n + b"1" + b")" * n + b";"}[kind]
    return (b"import java.net.Socket;\nclass Deep {\n    void deep(java.io.OutputStream out, byte[] b) {\n        "
            + inner + b"\n    }\n}\n" + JAVA_SPLIT.replace("import java.net.Socket;\n", "").encode())


DEEP_CASES = [("python", k) for k in ("parens", "calls", "lists")] + \
             [(lang, k) for lang in ("c", "java") for k in ("blocks", "ifs", "parens")]


def _split_line(data: bytes, needle: str) -> int:
    """The line of the split function's second send: the last line holding it."""
    lines = data.split(b"\n")
    return max(i for i, line in enumerate(lines, start=1) if needle.encode() in line)


@pytest.mark.parametrize("lang, kind", DEEP_CASES)
def test_deep_nesting_is_reported_not_a_crash(capsys, isolated, lang, kind):
    name = SPLITS[lang][0]
    (isolated / name).write_bytes(deep(lang, kind))
    write(isolated, "other.py", SPLIT)
    code, out, err = lint(capsys, name, "other.py")
    assert "RecursionError" not in err and "Traceback" not in err
    assert ("other.py", SPLIT_LINE, "NGL001") in finding_lines(out)
    mine = [w for w in warnings(err) if f" {name}: " in w]
    assert len(mine) == 1, err
    where = "Deep.deep (line 3)" if lang == "java" else "deep (line 1)"
    assert "nested too deeply to analyse" in mine[0] and where in mine[0], mine


@pytest.mark.parametrize("lang, kind", DEEP_CASES)
def test_deep_nesting_keeps_the_rest_of_the_file(capsys, isolated, lang, kind):
    """Only the deep function goes unanalysed: the split function after it in
    the same file is still reported (and the file still counts as linted)."""
    name, _, needle = SPLITS[lang]
    data = deep(lang, kind)
    (isolated / name).write_bytes(data)
    code, out, err = lint(capsys, name)
    assert code == 1, err
    assert finding_lines(out) == [(name, _split_line(data, needle), "NGL001")]
    assert "in 1 file" in err


DEEP_SPACES = (b"".join(b" " * (i + 1) + b"if x:\n" for i in range(DEPTH // 10))
               + b" " * (DEPTH // 10 + 1) + b"sock.sendall(b'x')\n")
# A tab counts up to 8: 700 levels fit in lines of under 100 characters.
DEEP_TABS = ("".join("\t" * (w // 8) + " " * (w % 8) + "if x:\n" for w in range(1, 700))
             + "\t" * 88 + "    sock.send(b'x')\n").encode()


@pytest.mark.parametrize("body", [DEEP_SPACES, DEEP_TABS], ids=["spaces", "tabs"])
def test_python_indented_beyond_its_own_limit(capsys, isolated, body):
    """CPython refuses more than 100 indentation levels; past about 500 the
    grammar's scanner overflows and can crash tree-sitter, so such a file is
    reported and skipped before it is parsed (the one of tabs crashed the
    process before it was refused)."""
    (isolated / "deep.py").write_bytes(b"def f(sock):\n" + body)
    write(isolated, "ok.py", SPLIT)
    code, out, err = lint(capsys, "deep.py", "ok.py")
    assert code == 1 and finding_lines(out) == [("ok.py", SPLIT_LINE, "NGL001")]
    assert warnings(err) == ["nagle-lint: warning: deep.py: indentation nested more than 100 levels deep "
                             "(Python's own limit); skipped"]


def test_java_with_too_many_open_angles_is_refused(capsys, isolated):
    """Many `<` left open before a syntax error make the Java grammar's error
    recovery grow with their square (24,000 crashed the process out of
    6 GB): such a file is reported and skipped before it is parsed; as
    many spread over statements, or the limit's worth in one, are parsed."""
    from nagle_lint.languages.java_scan import JavaScanner

    limit = JavaScanner.MAX_OPEN_ANGLES
    head = JAVA_SPLIT.replace("class Query", "class Odd")
    write(isolated, "Odd.java", head.rstrip().rstrip("}") + "  int x = " + "a<" * 24_000 + ";\n}\n")
    write(isolated, "Many.java", head.replace("class Odd", "class Many").rstrip().rstrip("}")
          + "".join(f"  boolean b{i} = a<b;\n" for i in range(2 * limit)) + "}\n")
    write(isolated, "Edge.java", head.replace("class Odd", "class Edge").rstrip().rstrip("}")
          + "  int x = " + "a<" * limit + ";\n}\n")
    start = time.monotonic()
    code, out, err = lint(capsys, "Odd.java", "Many.java", "Edge.java")
    assert time.monotonic() - start < 10
    assert code == 1 and {path for path, _, _ in finding_lines(out)} == {"Many.java"}
    refused = [w for w in warnings(err) if "open in one statement" in w]
    assert refused == [f"nagle-lint: warning: Odd.java: more than {limit} '<' open in one statement "
                       "(too ambiguous to parse safely); skipped"]


def test_python_indentation_at_the_limit_is_analysed():
    lines = [" " * i + "if x:" for i in range(1, 100)]
    data = ("def f(sock, a, b):\n" + "\n".join(lines) + "\n" + " " * 100 + "sock.sendall(a)\n"
            + " " * 100 + "sock.sendall(b)\n" + " " * 100 + "sock.recv(1)\n").encode()
    _, findings, problem, errors = lint_file("limit.py", Settings(), data)
    assert (problem, errors) == (None, 0)
    assert [(f.rule, f.site.line) for f in findings] == [("NGL001", 102)]


# --- syntax errors ------------------------------------------------------------------------

BROKEN = {
    "python": ("broken.py", "def oops(:\n    pass\n\n\n" + SPLIT + "\n\nclass Half(\n"),
    "c": ("broken.c", "#define DECLARE(x) int x\nDECLARE(a) DECLARE(b) }}}\nstatic int oops( {\n\n" + C_SPLIT
          + "\nint tail(void) { return (; }\n"),
    "java": ("Broken.java", JAVA_SPLIT.replace("class Query {", "class Query {\n    void oops( { ]\n", 1)
             + "\nclass Half {\n    void m( {\n"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_syntax_errors_elsewhere_keep_the_finding(capsys, isolated, lang):
    name, source = BROKEN[lang]
    _, _, needle = SPLITS[lang]
    write(isolated, name, source)
    line, _ = col_of(source, needle)
    code, out, err = lint(capsys, "--verbose", name)
    assert code == 1, err
    assert finding_lines(out) == [(name, line, "NGL001")]
    mine = warnings(err)
    assert len(mine) == 1 and "syntax error" in mine[0] and "analysed what parsed" in mine[0], err

    code, out, _ = lint(capsys, "--format", "sarif", name)
    run_ = json.loads(out)["runs"][0]
    assert len(run_["results"]) == 1
    notes = run_["invocations"][0]["toolExecutionNotifications"]
    assert len(notes) == 1 and "syntax error" in notes[0]["message"]["text"]


# --- paths that are not files ---------------------------------------------------------------


def test_a_folder_named_like_a_source_file(capsys, isolated):
    write(isolated, "x.py/inner.py", SPLIT)
    (isolated / "empty.c").mkdir()
    code, out, err = lint(capsys, ".")
    assert code == 1 and finding_lines(out) == [("./x.py/inner.py", SPLIT_LINE, "NGL001")]
    code, out, err = lint(capsys, "x.py", "empty.c")
    assert code == 1 and finding_lines(out) == [("x.py/inner.py", SPLIT_LINE, "NGL001")]
    assert not warnings(err)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_does_not_hang_the_run(capsys, isolated):
    os.mkfifo(isolated / "pipe.py")
    write(isolated, "ok.py", SPLIT)
    with deadline(20):
        code, out, err = lint(capsys, ".")
        assert code == 1 and finding_lines(out) == [("./ok.py", SPLIT_LINE, "NGL001")]
        assert not warnings(err)  # a walk lists regular files only
        code, out, err = lint(capsys, "pipe.py", "ok.py")
        assert code == 1 and finding_lines(out) == [("ok.py", SPLIT_LINE, "NGL001")]
        assert warnings(err) == ["nagle-lint: warning: pipe.py: not a regular file (a pipe, socket or device); "
                                 "skipped"]
        code, out, err = lint(capsys, "pipe.py")
        assert (code, out) == (2, "")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_dangling_and_looping_symlinks(capsys, isolated):
    os.symlink("nowhere.py", isolated / "dangling.py")
    os.symlink("loop_b.py", isolated / "loop_a.py")
    os.symlink("loop_a.py", isolated / "loop_b.py")
    os.symlink("self.c", isolated / "self.c")
    write(isolated, "ok.py", SPLIT)
    code, out, err = lint(capsys, ".")
    assert code == 1 and finding_lines(out) == [("./ok.py", SPLIT_LINE, "NGL001")]
    assert "in 1 file" in err
    code, out, err = lint(capsys, "dangling.py", "loop_a.py", "self.c", "ok.py")
    assert code == 1 and finding_lines(out) == [("ok.py", SPLIT_LINE, "NGL001")]
    assert warnings(err) == [
        "nagle-lint: warning: dangling.py: broken symbolic link; skipped",
        "nagle-lint: warning: loop_a.py: symbolic link loop; skipped",
        "nagle-lint: warning: self.c: symbolic link loop; skipped",
    ]
    code, out, err = lint(capsys, "dangling.py", "loop_a.py")
    assert (code, out) == (2, "")


# --- a file that changes between discovery and reading --------------------------------------


def _after_discovery(monkeypatch, change):
    """Run `change(paths)` once discovery has listed the files, before any is read."""
    import nagle_lint.runner as runner

    real = runner.discover

    def discover(*args, **kwargs):
        found = list(real(*args, **kwargs))
        change([p for p, e in found if e is None])
        yield from found

    monkeypatch.setattr(runner, "discover", discover)


@pytest.mark.parametrize("how, message", [
    ("deleted", "cannot read: No such file or directory; skipped"),
    ("folder", "a folder, not a file; skipped"),
    ("fifo", "not a regular file (a pipe, socket or device); skipped"),
    ("unreadable", "cannot read: Permission denied; skipped"),
])
def test_a_file_that_changes_after_discovery(capsys, isolated, monkeypatch, how, message):
    write(isolated, "gone.py", SPLIT)
    write(isolated, "ok.py", SPLIT)
    target = str(isolated / "gone.py")

    def change(paths):
        assert any(p.endswith("gone.py") for p in paths)
        os.remove(target)
        if how == "folder":
            os.mkdir(target)
        elif how == "fifo":
            os.mkfifo(target)
        elif how == "unreadable":  # chmod 000 does not stop root: refuse the open instead
            write(isolated, "gone.py", SPLIT)
            real_open = os.open

            def guarded(path, flags, *args, **kwargs):
                if os.path.abspath(path) == target:
                    raise PermissionError(errno.EACCES, "Permission denied", path)
                return real_open(path, flags, *args, **kwargs)

            monkeypatch.setattr(os, "open", guarded)

    _after_discovery(monkeypatch, change)
    with deadline(20):
        code, out, err = lint(capsys, ".")
    assert code == 1
    assert finding_lines(out) == [("./ok.py", SPLIT_LINE, "NGL001")]
    assert warnings(err) == [f"nagle-lint: warning: ./gone.py: {message}"]
    assert "in 1 file" in err


def test_read_file_never_raises(tmp_path):
    settings = Settings()
    (tmp_path / "dir.py").mkdir()
    odd = ["", "nope.py", str(tmp_path / "dir.py"), str(tmp_path / "missing" / "x.c"), "bad\0name.py",
           "x" * 5000 + ".py", "/dev/null.py"]
    if os.path.exists("/dev/null"):
        odd.append("/dev/null")
    for path in odd:
        prepared, problem = read_file(path, settings, language="python")
        assert prepared is None and problem and "\n" not in problem, (path, problem)


# --- exit codes ------------------------------------------------------------------------------


def test_exit_2_only_when_nothing_could_be_linted(capsys, isolated):
    (isolated / "blob.c").write_bytes(b"\0\1\2")
    (isolated / "broken.py").symlink_to("nowhere.py")
    write(isolated, "clean.py", "x = 1\n")
    write(isolated, "split.py", SPLIT)
    assert lint(capsys, "blob.c", "broken.py")[0] == 2
    assert lint(capsys, "blob.c", "broken.py", "clean.py")[0] == 0
    assert lint(capsys, "blob.c", "broken.py", "split.py")[0] == 1
    assert lint(capsys, "missing.py", "split.py")[0] == 2  # a path that does not exist is an error


# --- bounded work ------------------------------------------------------------------------------


def nested_loops(depth: int) -> str:
    """C whose lowering time grows much faster than its size (deeply nested loops)."""
    return ("int slow(int fd, const char *b)\n{\n" + "while (x) " * depth
            + "send(fd, b, 1, 0);\n    return 0;\n}\n")


def test_the_time_budget_stops_a_slow_file_and_the_run_goes_on(capsys, isolated):
    write(isolated, "slow.c", nested_loops(1500))  # half a minute without a budget
    write(isolated, "ok.c", C_SPLIT)
    start = time.monotonic()
    code, out, err = lint(capsys, "--timeout", "0.5", "slow.c", "ok.c")
    elapsed = time.monotonic() - start
    assert elapsed < 10, elapsed
    assert code == 1 and finding_lines(out) == [("ok.c", SPLIT_LINE, "NGL001")]
    assert warnings(err) == ["nagle-lint: warning: slow.c: took longer than the time budget (0.5 s a file, "
                             "see timeout); skipped"]


def test_the_time_budget_cancels_a_long_parse_and_the_next_parse_is_clean():
    data = ("int f(int fd) { send(fd, a, 1, 0); }\n" * 25_000).encode()
    prepared, problem = read_file("big.c", Settings(timeout=0.001, max_file_size=0), data)
    assert prepared is None and "time budget (0.001 s a file" in problem
    # A cancelled tree-sitter parse resumes at the next call unless reset: the
    # next file must get a tree of its own bytes.
    _, findings, problem, errors = lint_file("ok.c", Settings(), C_SPLIT.encode())
    assert (problem, errors) == (None, 0)
    assert [(f.rule, f.site.line) for f in findings] == [("NGL001", SPLIT_LINE)]
    tree = frontend("c").parse(b"int g(void) { return 1; }\n")
    assert tree.root_node.end_byte == 26 and not tree.root_node.has_error


def many_functions(n: int) -> str:
    """C that takes a while to analyse without being deep: many small socket functions."""
    return "\n".join(f"int f{i}(int sock, const char *b)\n{{\n    while (b[0]) {{ if (b[1]) send(sock, b, 2, 0); "
                     f"else write(sock, b, 3); read(sock, (char *)b, 1); }}\n    return 0;\n}}\n" for i in range(n))


def test_timeout_settings(capsys, isolated):
    write(isolated, "slow.c", many_functions(3000))  # about two seconds
    write(isolated, "ok.c", C_SPLIT)  # a few milliseconds
    code, out, err = lint(capsys, "--timeout", "0.5", "slow.c", "ok.c")
    # Its parse takes about half the budget: on a loaded machine the budget may run out there.
    assert [w.replace(": parsing took", ": took") for w in warnings(err)] == [
        "nagle-lint: warning: slow.c: took longer than the time budget (0.5 s a file, see timeout); skipped"]
    assert code == 1 and finding_lines(out) == [("ok.c", SPLIT_LINE, "NGL001")]
    code, out, err = lint(capsys, "--timeout", "0", "slow.c", "ok.c")  # 0: no limit
    assert not any("time budget" in w for w in warnings(err)), err
    (isolated / ".nagle-lint.toml").write_text("timeout = 0.5\n", encoding="utf-8")
    code, out, err = lint(capsys, "slow.c", "ok.c")
    assert any("time budget (0.5 s a file" in w for w in warnings(err)), err
    assert code == 1 and finding_lines(out) == [("ok.c", SPLIT_LINE, "NGL001")]
    code, out, err = lint(capsys, "--timeout", "60", "slow.c", "ok.c")  # the command line wins
    assert not any("time budget" in w for w in warnings(err)), err


def test_a_stop_that_a_callback_swallows_is_not_reported(monkeypatch):
    """The TimeoutError that stops a walk over its budget may land in a
    callback (a weak reference's, the garbage collector's), which cannot
    raise it: the file is still reported over its budget, and the stop is
    not reported as an error of that callback."""
    import threading
    import weakref

    from nagle_lint.languages import base

    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: reported.append(unraisable.exc_type))
    hook = sys.unraisablehook

    def spin(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            pass

    class Thing:
        pass

    done = []

    def slow_walk(self, qualname, node, cls):
        started, refs = time.perf_counter(), []
        while not done and time.perf_counter() < started + 3:  # bounded, should every stop land in a callback
            thing = Thing()
            refs.append(weakref.ref(thing, lambda _: spin(0.003)))  # most of the time is spent in callbacks
            del thing
            spin(0.001)

    monkeypatch.setattr(base.Unit, "lower_function", slow_walk)
    prepared, problem = read_file("slow.c", Settings(timeout=0.2), C_SPLIT.encode())
    done.append(True)  # a walk that was never stopped (left running after a second) ends now
    for thread in threading.enumerate():
        if thread.name == "nagle-lint-lower":
            thread.join()
    assert prepared is None and "time budget (0.2 s a file" in problem
    assert TimeoutError not in reported
    assert sys.unraisablehook is hook


def test_size_limit_settings(capsys, isolated):
    big = C_SPLIT + "/*" + "x" * 1_100_000 + "*/\n"
    write(isolated, "big.c", big)
    code, out, err = lint(capsys, "big.c")
    assert (code, out) == (2, "")
    assert warnings(err) == ["nagle-lint: warning: big.c: too big to lint (1.1 MB; the limit is 1.0 MB, "
                             "see max-file-size); skipped"]
    for argv in (["--max-file-size", "2MB"], ["--max-file-size", "0"], ["--max-file-size", "1200000"]):
        code, out, err = lint(capsys, *argv, "big.c")
        assert code == 1 and finding_lines(out) == [("big.c", SPLIT_LINE, "NGL001")], argv
    (isolated / ".nagle-lint.toml").write_text('max-file-size = "2 MiB"\n', encoding="utf-8")
    assert lint(capsys, "big.c")[0] == 1
    code, _, err = lint(capsys, "--max-file-size", "500kB", "big.c")  # the command line wins
    assert code == 2 and "the limit is 0.5 MB" in err


def test_the_defaults_are_documented():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    settings = Settings()
    assert (settings.max_file_size, settings.timeout) == (1_000_000, 10.0)
    assert "max-file-size" in readme and "timeout" in readme and "### Limits" in readme


# Regular expressions that backtrack on crafted input run before (or outside
# of) the time budget and cannot be interrupted: they must be linear.


def test_a_long_suppression_comment_is_parsed_in_linear_time():
    from nagle_lint.noqa import parse

    line = b"# nagle-lint: ignore[NGL001] -- reason" + b" " * 1500 + b"x\n"
    start = time.monotonic()
    marks = parse(line)
    assert time.monotonic() - start < 0.5
    assert marks[1][0] == {"NGL001"}


def test_c_prefilter_is_linear_on_unclosed_calls():
    data = b"a(b " * 20_000  # no ';', '{' or '}': every call scans to the end
    start = time.monotonic()
    read_file("calls.c", Settings(timeout=0), data)
    assert time.monotonic() - start < 1.0


def test_python_handler_class_with_many_blank_lines_is_linear():
    data = (b"import socketserver\n\nclass H(socketserver.StreamRequestHandler):\n    def handle(self):\n"
            b"        self.wfile.write(b'a')\n" + b"\n" * 30_000 + b"    def other(self):\n        pass\n")
    start = time.monotonic()
    read_file("handler.py", Settings(timeout=0), data)
    assert time.monotonic() - start < 1.0


# --- bad configuration and conflicting options -------------------------------------------------

BAD_LIMITS = [
    ("max-file-size = -1", "max-file-size"),
    ("max-file-size = 1.5", "max-file-size"),
    ('max-file-size = "1.5"', "max-file-size"),
    ('max-file-size = "2XB"', "max-file-size"),
    ('max-file-size = "-2MB"', "max-file-size"),
    ("max-file-size = true", "max-file-size"),
    ("max-file-size = [1]", "max-file-size"),
    ("timeout = -1", "timeout"),
    ('timeout = "10"', "timeout"),
    ("timeout = true", "timeout"),
    ("timeout = inf", "timeout"),
    ("timeout = nan", "timeout"),
    # Too big for a float: a clear error, not an OverflowError.
    ("timeout = 1" + "0" * 400, "timeout"),
    ('max-file-size = "' + "9" * 300 + '.5GB"', "max-file-size"),
]


def one_line_error(code, out, err) -> str:
    assert (code, out) == (2, ""), (code, out, err)
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nagle-lint: error: "), err
    return lines[0]


@pytest.mark.parametrize("body, key", BAD_LIMITS, ids=[b[:40] for b, _ in BAD_LIMITS])
def test_bad_limit_settings(capsys, isolated, body, key):
    write(isolated, "split.py", SPLIT)
    (isolated / ".nagle-lint.toml").write_text(body + "\n", encoding="utf-8")
    line = one_line_error(*lint(capsys, "split.py"))
    assert ".nagle-lint.toml" in line and f"'{key}'" in line


@pytest.mark.parametrize("argv", [
    ["--max-file-size", "-1"], ["--max-file-size", "lots"], ["--max-file-size", "1.5"], ["--max-file-size", ""],
    ["--timeout", "-0.5"], ["--timeout", "soon"], ["--timeout", "inf"], ["--timeout", "nan"],
    ["--timeout", "1" + "0" * 400], ["--max-file-size", "1" + "0" * 400 + ".5MB"],
    ["--jobs", "0"], ["--jobs", "-3"], ["--jobs", "two"],
], ids=lambda argv: " ".join(argv)[:40])
def test_bad_option_values(capsys, isolated, argv):
    write(isolated, "split.py", SPLIT)
    line = one_line_error(*lint(capsys, *argv, "split.py"))
    assert argv[0] in line


def test_toml_nested_too_deeply(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    (isolated / ".nagle-lint.toml").write_text("select = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    line = one_line_error(*lint(capsys, "split.py"))
    assert ".nagle-lint.toml" in line and "TOML" in line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_config_that_is_a_fifo_does_not_hang(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    os.mkfifo(isolated / "pyproject.toml")
    with deadline(20):
        assert lint(capsys, "split.py")[0] == 1  # not a config file: passed over
        one_line_error(*lint(capsys, "--config", "pyproject.toml", "split.py"))


def test_select_and_ignore_naming_the_same_rule_is_not_a_conflict(capsys, isolated):
    """Documented: --ignore wins over --select."""
    write(isolated, "split.py", SPLIT)
    code, out, err = lint(capsys, "--select", "NGL001", "--ignore", "NGL001", "split.py")
    assert (code, out) == (0, "") and "Traceback" not in err


def test_exit_zero_with_fail_on_is_not_a_conflict(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    code, out, _ = lint(capsys, "--exit-zero", "--fail-on", "note", "split.py")
    assert code == 0 and "NGL001" in out


def test_quiet_and_verbose_conflict(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    line = one_line_error(*lint(capsys, "--quiet", "--verbose", "split.py"))
    assert "--quiet" in line and "--verbose" in line


def test_output_file_must_not_be_a_linted_file(capsys, isolated):
    """Writing the report over a source file being linted destroys it."""
    path = write(isolated, "split.py", SPLIT)
    line = one_line_error(*lint(capsys, "--output-file", "split.py", "."))
    assert "--output-file" in line and "split.py" in line
    assert path.read_text(encoding="utf-8") == SPLIT


# --- read-only by construction ----------------------------------------------------------------

AUDIT = r'''
import os, sys

ROOT = os.path.realpath(sys.argv[1])
OUTPUT = os.path.realpath(sys.argv[2])
CACHE = os.path.join(ROOT, ".nagle_lint_cache")
WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
NETWORK = ("socket.", "http.", "urllib.", "ftplib.", "smtplib.", "ssl.")
RUNS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.startfile", "pty.spawn")
CHANGES = ("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.symlink", "os.link",
           "os.truncate", "os.utime", "shutil.")

def inside(path, folder):
    return path == folder or path.startswith(folder + os.sep)

def complain(event, args):
    os.write(2, f"AUDIT-VIOLATION {event} {args!r}\n".encode("utf-8", "replace"))

def where(arg, dir_fd=None):
    if isinstance(arg, int) or arg is None:
        return None
    if dir_fd is not None and dir_fd >= 0:  # relative to an open folder: where it is
        return os.path.realpath(os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), os.fsdecode(arg)))
    return os.path.realpath(os.fsdecode(arg))

# A name opened relative to an open folder (the cache's): the event does not
# say which folder, so only a new file (never an existing one, never through
# a link) is allowed; renaming it into place is checked with its folder.
NEW_FILE = os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW

def in_tree(name):
    """A real file of the linted tree (not '<string>', '<frozen ...>')."""
    if not isinstance(name, (str, bytes)) or os.fsdecode(name).startswith("<"):
        return False
    return inside(where(name), ROOT)

def hook(event, args):
    if event == "open":
        path, flags = where(args[0]), args[2] or 0
        relative = isinstance(args[0], str) and os.sep not in args[0] and flags & NEW_FILE == NEW_FILE
        if path and flags & WRITES and path != OUTPUT and not inside(path, CACHE) and not relative:
            complain(event, args)
    elif event.startswith(NETWORK) or event.startswith(RUNS):
        complain(event, args)
    elif event.startswith(CHANGES):
        if event == "os.rename":  # (src, dst, src_dir_fd, dst_dir_fd)
            paths = [where(args[0], args[2]), where(args[1], args[3])]
        elif event == "os.remove":  # (path, dir_fd)
            paths = [where(args[0], args[1])]
        else:
            paths = [where(a) for a in args if isinstance(a, (str, bytes, os.PathLike))]
        if not paths or not all(inside(p, CACHE) for p in paths):
            complain(event, args)
    elif event == "import":
        if in_tree(args[1]) or args[0] in ("evil", "settings_hook", "conftest", "setup", "gen"):
            complain(event, args)
    elif event == "compile":
        source = args[0] if isinstance(args[0], bytes) else str(args[0]).encode("utf-8", "replace")
        if in_tree(args[1]) or b"MARKER" in source:
            complain(event, args)
    elif event == "exec":
        if in_tree(getattr(args[0], "co_filename", None)):
            complain(event, args)

sys.addaudithook(hook)
sys.path = [p for p in sys.path if not inside(os.path.realpath(p or "."), ROOT)]
from nagle_lint.cli import main
code = main(sys.argv[3:])
os.write(2, f"EXIT {code}\n".encode())
'''


def _hostile_tree(root: Path, marker: Path, files: int) -> None:
    """Sources that would do something if imported, compiled or run."""
    evil = (f"import os\nopen({str(marker)!r}, 'w').write('MARKER')\nos.system('touch {marker}')\n\n" + SPLIT)
    write(root, "evil.py", evil)
    write(root, "settings_hook.py", "import socket\nsocket.create_connection(('127.0.0.1', 9))\n" + SPLIT)
    write(root, "setup.py", "raise SystemExit('MARKER: setup.py was run')\n")
    write(root, "conftest.py", f"open({str(marker)!r}, 'w').write('MARKER')\n")
    write(root, "__init__.py", f"open({str(marker)!r}, 'w').write('MARKER')\n")
    write(root, "Makefile.c", "#include \"/dev/zero\"\n" + C_SPLIT)
    write(root, "Client.java", JAVA_SPLIT.replace("class Query", "class Client"))
    for i in range(files):
        write(root, f"gen/m{i:03}.py", SPLIT.replace("query", f"query{i}"))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_read_only_by_construction(tmp_path, jobs):
    """An audit hook watches a real run over hostile sources: no file is opened
    for writing except --output-file (and the result cache, in its documented
    folder), no socket is made, nothing is run, and no analysed file is
    imported, compiled or executed.  With 2 jobs the tree is big enough for
    worker processes, which inherit the hook."""
    root = tmp_path / "tree"
    marker = tmp_path / "PWNED"
    _hostile_tree(root, marker, 80)
    script = tmp_path / "audit.py"
    script.write_text(AUDIT, encoding="utf-8")
    report = tmp_path / "report.sarif"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run([sys.executable, str(script), str(root), str(report), "--jobs", jobs, "--format", "sarif",
                           "--output-file", str(report), str(root)],
                          cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert "AUDIT-VIOLATION" not in proc.stderr, proc.stderr
    assert "EXIT 1" in proc.stderr, proc.stderr
    assert not marker.exists()
    results = json.loads(report.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert len(results) == 80 + 4  # every split function, in every file, and nothing ran
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit.py", "report.sarif", "tree"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_symlink_out_of_the_tree_is_not_followed(capsys, tmp_path, monkeypatch):
    """A link in a pull request may point anywhere on the machine that runs
    the linter (`secrets.py -> ~/.ssh/...`): a walk does not follow a link to a
    file outside the tree it lints, as it does not follow linked folders.
    Naming the link on the command line is asking for it."""
    outside = write(tmp_path, "outside/secret.py", SPLIT)
    tree = tmp_path / "tree"
    write(tree, "ok.py", SPLIT)
    write(tree, "inner/real.py", SPLIT)
    os.symlink(outside, tree / "leak.py")
    os.symlink(tree / "inner" / "real.py", tree / "alias.py")  # inside the tree: harmless
    monkeypatch.chdir(tree)
    code, out, err = lint(capsys, ".")
    linted = {p for p, _, _ in finding_lines(out)}
    assert "./leak.py" not in linted, out
    assert {"./ok.py", "./inner/real.py"} <= linted
    code, out, err = lint(capsys, "leak.py")
    assert code == 1 and finding_lines(out) == [("leak.py", SPLIT_LINE, "NGL001")]


def test_a_tower_of_powers_in_a_constant_is_refused_not_computed():
    """A module constant's arithmetic (for a guard like `if size < LIMIT:
    return`) comes from the linted tree: a value past 64 bits, or a tower of
    powers whose fifth level would take hours, is no number; ordinary sizes
    still are."""
    from nagle_lint.languages.python import _arithmetic

    assert _arithmetic("((9**64)**64)**64") is None
    assert _arithmetic("1 * ((9**64)**64)**64") is None
    assert _arithmetic("((((9**64)**64)**64)**64)**64") is None
    assert _arithmetic("1 << 64 << 64") is None
    assert _arithmetic("2**24 - 1") == 16777215
    assert _arithmetic("16 * 1024 * 1024") == 1 << 24
    assert _arithmetic("-(1 << 16)") == -65536


def test_a_file_whose_constant_is_a_tower_of_powers_is_linted(capsys, isolated):
    """Two lines that once stalled the run: the limit is no number, so the
    guard lets every message on and the split after it is reported."""
    write(isolated, "tower.py", "LIMIT = 1 * ((((9**64)**64)**64)**64)**64\n\n"
          "def send(sock, data):\n    if len(data) < LIMIT:\n        return\n"
          "    sock.sendall(b'h')\n    sock.sendall(data)\n    return sock.recv(10)\n")
    code, out, err = lint(capsys, "tower.py")
    assert ("tower.py", 7, "NGL001") in finding_lines(out), (out, err)
