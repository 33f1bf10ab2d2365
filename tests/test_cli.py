"""The command line as a user meets it: exit codes, options, output formats,
file discovery, subcommands, suppressions and error handling.

Most tests call `nagle_lint.cli.main(argv)` in-process and read what it
printed with capsys; a few run `python -m nagle_lint` as a real process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from nagle_lint import __version__
from nagle_lint.cli import main
from nagle_lint.rules import OPT_IN, all_rules

ROOT = Path(__file__).resolve().parent.parent

# --- sources ----------------------------------------------------------------

SPLIT = """\
import socket


def query(host, port, head, body):
    sock = socket.create_connection((host, port))
    sock.sendall(head)
    sock.sendall(body)
    return sock.recv(4096)
"""
SPLIT_LINE = 7  # the second send

JOINED = """\
import socket


def query(host, port, head, body):
    sock = socket.create_connection((host, port))
    sock.sendall(head + body)
    return sock.recv(4096)
"""

# TCP_NODELAY with no reason and no split writes: an NGL002 note, nothing else.
NODELAY_NOTE = """\
import socket


def connect(host, port):
    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock
"""

# One byte a pass on a TCP socket: NGL003 only.
BYTE_LOOP = """\
import socket


def trickle(host, port, data):
    sock = socket.create_connection((host, port))
    for b in data:
        sock.send(bytes([b]))
"""

# A parameter only named like a socket: a medium-confidence NGL001.
MEDIUM = """\
def call(sock, head, body):
    sock.sendall(head)
    sock.sendall(body)
    return sock.recv(10)
"""

# An `int fd` of unknown origin: a low-confidence NGL001, hidden by default.
LOW_C = """\
#include <unistd.h>

int call(int fd, const char *h, const char *b, char *r)
{
    write(fd, h, 4);
    write(fd, b, 4);
    return read(fd, r, 4);
}
"""


def write(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    """Run the CLI in-process: (exit code, stdout, stderr).  argparse's own
    exits (--version, --help) count as their exit code."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    out, err = capsys.readouterr()
    return code, out, err


def finding_lines(out: str) -> list[tuple[str, int, str]]:
    """(path, line, rule) of each text-format finding line."""
    found = []
    for line in out.splitlines():
        location, _, rest = line.partition(": ")
        path, lineno, col = location.rsplit(":", 2)
        assert col.isdigit(), line
        found.append((path, int(lineno), rest.split()[0]))
    return found


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """An empty project folder as the working directory, with no config above it."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- exit codes ---------------------------------------------------------------


def test_no_findings_exits_0(capsys, isolated):
    write(isolated, "clean.py", JOINED)
    code, out, err = run(capsys, "clean.py")
    assert code == 0
    assert out == ""
    assert "No findings in 1 file" in err


def test_findings_exit_1_and_text_format(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    code, out, err = run(capsys, "split.py")
    assert code == 1
    assert finding_lines(out) == [("split.py", SPLIT_LINE, "NGL001")]
    # path:line:col: NGL001 message, the column of the delayed send
    assert out.startswith(f"split.py:{SPLIT_LINE}:5: NGL001 ")
    assert "line 6" in out and "line 8" in out  # the other sites, by line
    # The summary goes to stderr, never mixed into the findings.
    assert "Found 1 finding" in err and "Found" not in out


def test_findings_sorted_by_path_and_line(capsys, isolated):
    write(isolated, "b.py", SPLIT)
    write(isolated, "a.py", SPLIT + "\n\n" + BYTE_LOOP.replace("import socket\n", ""))
    code, out, _ = run(capsys, ".")
    assert code == 1
    got = finding_lines(out)
    assert got == sorted(got, key=lambda t: (t[0], t[1]))
    assert [(Path(p).name, r) for p, _, r in got] == [("a.py", "NGL001"), ("a.py", "NGL003"), ("b.py", "NGL001")]


@pytest.mark.parametrize("argv", [
    ["--no-such-option"],
    ["--format", "xml", "."],
    ["--fail-on", "error", "."],
    ["--min-confidence", "certain", "."],
    ["--jobs", "0", "."],
    ["--select", "NGL999", "."],
    ["--select", "XYZ", "."],
    ["--ignore", "E501", "."],
    ["--select", "NGL0010", "."],
    ["rules", "extra"],
    ["explain"],
    ["explain", "NGL001", "NGL002"],
], ids=lambda a: " ".join(a))
def test_usage_errors_exit_2_with_one_line(capsys, isolated, argv):
    write(isolated, "split.py", SPLIT)
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("nagle-lint: error: ")
    assert "Traceback" not in err


def test_unknown_rule_message_names_it_and_the_option(capsys, isolated):
    code, _, err = run(capsys, "--select", "NGL9", ".")
    assert code == 2
    assert "--select" in err and "NGL9" in err and "NGL001" in err


def test_only_a_missing_path_exits_2(capsys, isolated):
    code, out, err = run(capsys, "missing.py")
    assert code == 2
    assert out == ""
    assert "missing.py" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("first", [True, False], ids=["missing-first", "missing-last"])
def test_a_missing_path_next_to_a_good_file_is_an_error(capsys, isolated, first):
    # A typo in CI once linted the good file only and passed: "No findings in 1 file".
    write(isolated, "good.py", JOINED)
    code, out, err = run(capsys, *(["srcc", "good.py"] if first else ["good.py", "srcc"]))
    assert code == 2
    assert out == ""
    assert err == "nagle-lint: error: srcc: no such file or directory\n"


@pytest.mark.parametrize("argv", [[], ["."], ["docs"], ["--exclude", "*.py", "."], ["--exclude", "docs", "docs"]],
                         ids=lambda a: " ".join(a) or "(none)")
def test_nothing_to_lint_is_an_error(capsys, isolated, argv):
    write(isolated, "docs/readme.txt", "sock.send(b'x')\n")
    if "*.py" in argv:
        write(isolated, "a.py", SPLIT)
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("nagle-lint: error: nothing to lint: no Python, Java or C file in ")
    assert len(err.splitlines()) == 1
    assert "0 files" not in err


def test_files_named_and_all_excluded_by_force_exclude_are_no_error(capsys, isolated):
    # The pre-commit hook names the staged files: excluding them all is what the configuration asks.
    write(isolated, "pyproject.toml", '[tool.nagle-lint]\nexclude = ["vendor"]\n')
    write(isolated, "vendor/a.py", SPLIT)
    code, out, err = run(capsys, "--force-exclude", "vendor/a.py")
    assert (code, out) == (0, "")
    assert "excluded" in err and "error" not in err
    # A folder named on the command line is no list of staged files.
    code, _, err = run(capsys, "--force-exclude", "--exclude", "*.py", ".")
    assert code == 2 and "nothing to lint" in err


def test_a_binary_file_named_alone_exits_2(capsys, isolated):
    (isolated / "blob.py").write_bytes(b"import socket\0\0\0")
    code, _, err = run(capsys, "blob.py")
    assert code == 2
    assert "blob.py" in err and "Traceback" not in err


def test_a_file_with_syntax_errors_is_still_analysed(capsys, isolated):
    write(isolated, "broken.py", SPLIT + "\n\ndef oops(:\n    pass\n")
    code, out, err = run(capsys, "broken.py")
    assert code == 1
    assert finding_lines(out) == [("broken.py", SPLIT_LINE, "NGL001")]
    assert "syntax error" in err
    assert "Traceback" not in err


def test_exit_zero(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    code, out, _ = run(capsys, "--exit-zero", "split.py")
    assert code == 0
    assert "NGL001" in out  # the findings are still printed


def test_default_path_is_the_current_folder(capsys, isolated):
    write(isolated, "pkg/split.py", SPLIT)
    code, out, _ = run(capsys)
    assert code == 1
    assert [(Path(p).as_posix().lstrip("./"), r) for p, _, r in finding_lines(out)] == [("pkg/split.py", "NGL001")]


def test_a_file_named_twice_is_linted_once(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    code, out, err = run(capsys, "split.py", "split.py")
    assert code == 1
    assert len(finding_lines(out)) == 1
    assert "in 1 file" in err


def test_a_file_reached_twice_is_reported_once(capsys, isolated):
    """`nagle-lint . split.py` (or `./split.py split.py`) is one file, not two."""
    write(isolated, "split.py", SPLIT)
    code, out, err = run(capsys, ".", "split.py")
    assert code == 1
    assert len(finding_lines(out)) == 1, out
    assert "in 1 file" in err
    code, out, _ = run(capsys, "./split.py", "split.py")
    assert len(finding_lines(out)) == 1, out


def test_non_ascii_and_non_utf8_bytes(capsys, isolated):
    """A Latin-1 byte in a comment does not stop the analysis, and columns
    count characters, not bytes."""
    (isolated / "enc.py").write_bytes(
        b"import socket\n\n\ndef query(host, port, head, body):\n"
        b"    sock = socket.create_connection((host, port))  # caf\xe9\n"
        b"    sock.sendall(head)\n"
        b"    \xc3\xbc = 1; sock.sendall(body)\n"
        b"    return sock.recv(4096)\n")
    code, out, err = run(capsys, "enc.py")
    assert code == 1, err
    assert out.startswith("enc.py:7:12: NGL001 ")


def test_empty_and_comment_only_files(capsys, isolated):
    write(isolated, "empty.py", "")
    write(isolated, "comments.c", "/* nothing here */\n")
    write(isolated, "Empty.java", "// nothing\n")
    code, out, err = run(capsys, ".")
    assert (code, out) == (0, "")
    assert "No findings in 3 files" in err


# --- --fail-on and --min-confidence --------------------------------------------


def test_a_note_alone_exits_0_by_default(capsys, isolated):
    write(isolated, "nodelay.py", NODELAY_NOTE)
    code, out, err = run(capsys, "nodelay.py")
    assert code == 0
    assert finding_lines(out) == [("nodelay.py", 6, "NGL002")]  # shown, though it does not fail the run
    assert "1 note" in err


def test_a_note_fails_with_fail_on_note(capsys, isolated):
    write(isolated, "nodelay.py", NODELAY_NOTE)
    code, _, _ = run(capsys, "--fail-on", "note", "nodelay.py")
    assert code == 1


def test_fail_on_warning_is_explicitly_accepted(capsys, isolated):
    write(isolated, "nodelay.py", NODELAY_NOTE)
    write(isolated, "split.py", SPLIT)
    assert run(capsys, "--fail-on", "warning", "nodelay.py")[0] == 0
    assert run(capsys, "--fail-on", "warning", "split.py")[0] == 1


def test_json_level_of_the_note(capsys, isolated):
    write(isolated, "nodelay.py", NODELAY_NOTE)
    _, out, _ = run(capsys, "--format", "json", "nodelay.py")
    [finding] = json.loads(out)["findings"]
    assert (finding["rule"], finding["level"]) == ("NGL002", "note")


def test_low_confidence_is_hidden_by_default(capsys, isolated):
    write(isolated, "fd.c", LOW_C)
    code, out, _ = run(capsys, "fd.c")
    assert (code, out) == (0, "")
    code, out, _ = run(capsys, "--min-confidence", "low", "fd.c")
    assert code == 1
    assert finding_lines(out) == [("fd.c", 6, "NGL001")]


def test_min_confidence_high_hides_medium(capsys, isolated):
    write(isolated, "med.py", MEDIUM)
    code, out, _ = run(capsys, "--format", "json", "med.py")
    assert code == 1
    assert [f["confidence"] for f in json.loads(out)["findings"]] == ["medium"]
    code, out, _ = run(capsys, "--min-confidence", "high", "med.py")
    assert (code, out) == (0, "")


# --- --select / --ignore ----------------------------------------------------------


@pytest.fixture
def mixed(isolated):
    """A file with one NGL001 (line 7), one NGL002 note (line 13) and one NGL003 (line 20)."""
    write(isolated, "mixed.py", SPLIT + "\n\n" + NODELAY_NOTE.replace("import socket\n", "") + "\n\n"
          + BYTE_LOOP.replace("import socket\n", ""))
    return isolated


def rules_reported(capsys, *argv) -> list[str]:
    code, out, err = run(capsys, "--fail-on", "note", *argv, "mixed.py")
    assert code in (0, 1), err
    return sorted(rule for _, _, rule in finding_lines(out))


def test_all_default_rules_run(capsys, mixed):
    assert rules_reported(capsys) == ["NGL001", "NGL002", "NGL003"]


@pytest.mark.parametrize("argv, expected", [
    (["--select", "NGL001"], ["NGL001"]),
    (["--select", "ngl003"], ["NGL003"]),  # ids are case-insensitive
    (["--select", "NGL001,NGL002"], ["NGL001", "NGL002"]),
    (["--select", "NGL00"], ["NGL001", "NGL002", "NGL003"]),  # a prefix
    (["--select", "NGL"], ["NGL001", "NGL002", "NGL003"]),
    (["--ignore", "NGL002"], ["NGL001", "NGL003"]),
    (["--ignore", "NGL001, NGL003"], ["NGL002"]),
    (["--ignore", "NGL00"], []),
    (["--select", "NGL00", "--ignore", "NGL001"], ["NGL002", "NGL003"]),
    (["--select", "NGL001", "--ignore", "NGL001"], []),
], ids=lambda v: " ".join(v) if isinstance(v, list) and v and v[0].startswith("--") else None)
def test_select_and_ignore(capsys, mixed, argv, expected):
    assert rules_reported(capsys, *argv) == expected


def test_selecting_nothing_that_fires_exits_0(capsys, mixed):
    code, out, _ = run(capsys, "--select", "NGL004", "mixed.py")
    assert (code, out) == (0, "")


# --- output formats -----------------------------------------------------------------


def test_json_format(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    write(isolated, "clean.py", JOINED)
    code, out, _ = run(capsys, "--format", "json", ".")
    assert code == 1
    doc = json.loads(out)
    assert doc["tool"] == "nagle-lint"
    assert doc["version"] == __version__
    assert doc["files"] == 2
    assert doc["problems"] == []
    [f] = doc["findings"]
    assert Path(f["path"]).name == "split.py"
    assert (f["rule"], f["line"], f["column"], f["level"], f["confidence"]) == ("NGL001", SPLIT_LINE, 5, "warning", "high")
    assert f["end_line"] == SPLIT_LINE and f["end_column"] > f["column"]
    assert f["suppressed"] is None
    assert "first at line 6" in f["message"]
    assert f["fix"] and f["fix"] in f["message"]
    assert {(r["line"], r["label"]) for r in f["related"]} >= {(6, "first send")}
    assert any(r["line"] == 8 for r in f["related"])


def test_json_lists_problems(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    (isolated / "blob.py").write_bytes(b"import socket\0")
    code, out, _ = run(capsys, "--format", "json", "blob.py", "split.py")
    assert code == 1
    doc = json.loads(out)
    assert [p["path"] for p in doc["problems"]] == ["blob.py"]


def test_json_with_no_findings_is_still_a_document(capsys, isolated):
    write(isolated, "clean.py", JOINED)
    code, out, _ = run(capsys, "--format", "json", "clean.py")
    assert code == 0
    assert json.loads(out)["findings"] == []


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_output_file(capsys, isolated, fmt):
    write(isolated, "split.py", SPLIT)
    report = isolated / "out" / "report.txt"
    report.parent.mkdir()
    code, out, _ = run(capsys, "--format", fmt, "--output-file", report, "split.py")
    assert code == 1
    assert out == ""  # nothing on stdout
    written = report.read_text(encoding="utf-8")
    if fmt == "json":
        assert json.loads(written)["findings"][0]["rule"] == "NGL001"
    else:
        assert finding_lines(written) == [("split.py", SPLIT_LINE, "NGL001")]
    # The same report as on stdout.
    _, direct, _ = run(capsys, "--format", fmt, "split.py")
    assert written == direct


def test_output_file_short_option(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    code, out, _ = run(capsys, "-o", "r.txt", "split.py")
    assert code == 1 and out == ""
    assert "NGL001" in (isolated / "r.txt").read_text(encoding="utf-8")


def test_output_file_that_cannot_be_written_exits_2(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    code, _, err = run(capsys, "--output-file", isolated / "no" / "such" / "dir" / "r.txt", "split.py")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_quiet_prints_nothing_on_stderr(capsys, isolated):
    write(isolated, "split.py", SPLIT)
    (isolated / "blob.py").write_bytes(b"import socket\0")
    code, out, err = run(capsys, "--quiet", "split.py", "blob.py")
    assert code == 1
    assert err == ""
    assert finding_lines(out) == [("split.py", SPLIT_LINE, "NGL001")]
    code, out, err = run(capsys, "-q", "split.py")
    assert (code, err) == (1, "")


def test_version(capsys):
    code, out, err = run(capsys, "--version")
    assert code == 0
    assert out.strip() == f"nagle-lint {__version__}"


def test_help(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for option in ("--select", "--ignore", "--format", "--output-file", "--exit-zero", "--quiet", "--fail-on",
                   "--min-confidence", "--exclude"):
        assert option in out


# --- discovery ----------------------------------------------------------------------


def test_skipped_folders_and_extensions(capsys, isolated):
    write(isolated, "src/app.py", SPLIT)
    write(isolated, "src/App.java", "class App {}\n")
    for skipped in (".git", "node_modules", "venv", ".venv", "__pycache__", "build", "dist", "target",
                    "pkg.egg-info"):
        write(isolated, f"{skipped}/bad.py", SPLIT)
        write(isolated, f"src/{skipped}/bad.py", SPLIT)
    write(isolated, "notes.txt", SPLIT)  # not a language we read
    write(isolated, "script", SPLIT)  # no extension
    code, out, err = run(capsys, "--format", "json", ".")
    assert code == 1
    doc = json.loads(out)
    assert [Path(f["path"]).as_posix().lstrip("./") for f in doc["findings"]] == ["src/app.py"]
    assert doc["files"] == 2  # app.py and App.java


def test_c_headers_and_java_are_discovered(capsys, isolated):
    write(isolated, "net/fd.h", LOW_C)
    code, out, _ = run(capsys, "--min-confidence", "low", ".")
    assert code == 1
    assert [Path(p).name for p, _, _ in finding_lines(out)] == ["fd.h"]


@pytest.mark.parametrize("pattern", ["vendor", "vendor/", "vendor/*", "*/generated_*.py", "generated_*.py"])
def test_exclude(capsys, isolated, pattern):
    write(isolated, "src/app.py", SPLIT)
    write(isolated, "vendor/lib.py", SPLIT)
    write(isolated, "src/generated_x.py", SPLIT)
    code, out, _ = run(capsys, "--exclude", pattern, ".")
    assert code == 1
    got = {Path(p).as_posix().lstrip("./") for p, _, _ in finding_lines(out)}
    assert "src/app.py" in got
    if pattern.startswith("vendor"):
        assert got == {"src/app.py", "src/generated_x.py"}
    else:
        assert got == {"src/app.py", "vendor/lib.py"}


def test_exclude_several_patterns(capsys, isolated):
    write(isolated, "a/x.py", SPLIT)
    write(isolated, "b/x.py", SPLIT)
    write(isolated, "c/x.py", SPLIT)
    code, out, _ = run(capsys, "--exclude", "a,b", ".")
    assert code == 1
    assert {Path(p).parent.name for p, _, _ in finding_lines(out)} == {"c"}


def test_exclude_everything_leaves_nothing_and_says_so(capsys, isolated):
    write(isolated, "a/x.py", SPLIT)
    code, out, err = run(capsys, "--exclude", "a", ".")
    assert (code, out) == (2, "")
    assert "nothing to lint" in err and "0 files" not in err


def test_a_file_named_explicitly_is_linted_even_if_excluded_unless_forced(capsys, isolated):
    write(isolated, "vendor/lib.py", SPLIT)
    assert run(capsys, "--exclude", "vendor", "vendor/lib.py")[0] == 1
    code, out, _ = run(capsys, "--exclude", "vendor", "--force-exclude", "vendor/lib.py")
    assert (code, out) == (0, "")


# --- subcommands -------------------------------------------------------------------


def test_rules_lists_every_rule(capsys, isolated):
    code, out, err = run(capsys, "rules")
    assert code == 0
    lines = out.splitlines()
    for line, rule in zip(lines, all_rules().values()):
        assert ("(off unless selected)" in line) == (rule.id in OPT_IN), line
    assert [line.split()[0] for line in lines] == list(all_rules())
    assert [line.split()[0] for line in lines][:4] == ["NGL001", "NGL002", "NGL003", "NGL004"]
    for line, rule in zip(lines, all_rules().values()):
        assert rule.name in line and rule.summary in line and rule.level in line


def test_explain_prints_the_document(capsys):
    code, out, _ = run(capsys, "explain", "NGL001")
    assert code == 0
    assert out == all_rules()["NGL001"].body
    assert out.startswith("# NGL001 split-write-before-read")
    for section in ("## What it finds", "## Why it hurts", "## Example", "## How to fix", "## When it is fine"):
        assert section in out
    assert not out.startswith("---")  # the metadata header is not part of the document shown


@pytest.mark.parametrize("name", ["ngl002", "unjustified-nodelay"])
def test_explain_by_lowercase_id_or_name(capsys, name):
    code, out, _ = run(capsys, "explain", name)
    assert code == 0
    assert out == all_rules()["NGL002"].body


def test_explain_unknown_rule_exits_2(capsys):
    code, out, err = run(capsys, "explain", "NOPE")
    assert code == 2
    assert out == ""
    assert "NOPE" in err and "NGL001" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("word", ["rules", "demo", "clean", "explain", "help"])
def test_a_subcommand_that_is_also_a_path_here_is_an_error(capsys, isolated, word, monkeypatch):
    # `nagle-lint rules` in a tree with a `rules/` folder printed the rule table and passed.
    write(isolated, f"{word}/x.py", SPLIT)
    code, out, err = run(capsys, word)
    assert (code, out) == (2, "")
    assert err.startswith(f"nagle-lint: error: '{word}' is both a subcommand and a path here")
    assert f"nagle-lint check {word}" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("argv", [["check", "rules"], ["./rules"], ["check", "--select", "NGL001", "rules"]])
def test_check_or_a_path_lints_a_folder_named_like_a_subcommand(capsys, isolated, argv):
    write(isolated, "rules/x.py", SPLIT)
    code, out, _ = run(capsys, *argv)
    assert code == 1
    assert [rule for _, _, rule in finding_lines(out)] == ["NGL001"]


def test_check_lints_the_current_folder_by_default(capsys, isolated):
    write(isolated, "a.py", SPLIT)
    assert run(capsys, "check")[0] == 1


@pytest.mark.parametrize(("argv", "expected"), [
    (["help"], "usage: nagle-lint [-h]"),
    (["help", "check"], "usage: nagle-lint check [-h]"),
    (["help", "explain"], "usage: nagle-lint explain [-h] RULE"),
    (["help", "demo"], "usage: nagle-lint demo [-h]"),
    (["explain", "--help"], "usage: nagle-lint explain [-h] RULE"),
])
def test_help(capsys, isolated, argv, expected):
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    assert out.startswith(expected)


def test_help_of_an_unknown_subcommand_is_an_error(capsys, isolated):
    code, out, err = run(capsys, "help", "lint")
    assert (code, out) == (2, "")
    assert err.startswith("nagle-lint: error: argument SUBCOMMAND: invalid choice: 'lint'")


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_select_and_ignore_take_rule_names(capsys, isolated, option):
    write(isolated, "split.py", SPLIT)
    write(isolated, "loop.py", BYTE_LOOP)
    code, out, _ = run(capsys, option, "split-write-before-read", ".")
    rules = {rule for _, _, rule in finding_lines(out)}
    assert rules == ({"NGL001"} if option == "--select" else {"NGL003"})


def test_select_all_runs_the_rules_off_by_default_too(isolated):
    from nagle_lint.arguments import parse
    from nagle_lint.cli import settings_from
    from nagle_lint.config import selected_rules

    assert OPT_IN
    assert selected_rules(settings_from(parse(["--select", "ALL"])).of("x.py")) == set(all_rules())
    assert selected_rules(settings_from(parse(["--select", "NGL"])).of("x.py")) == set(all_rules()) - OPT_IN


def test_a_dash_lints_standard_input_as_the_stdin_filename(capsys, isolated, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SPLIT.encode())))
    code, out, _ = run(capsys, "--stdin-filename", "x.py", "-")
    assert code == 1
    assert [(p, rule) for p, _, rule in finding_lines(out)] == [("x.py", "NGL001")]


def test_the_full_report_of_standard_input_shows_its_lines_not_the_files(capsys, isolated, monkeypatch):
    """The file on disk named by --stdin-filename holds other text (an
    editor's unsaved buffer): the source lines shown are those linted."""
    import io

    write(isolated, "x.py", "# an older version\n" * 10)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SPLIT.encode())))
    code, out, _ = run(capsys, "--format", "full", "--stdin-filename", "x.py", "-")
    assert code == 1
    assert "older version" not in out
    assert "sock.sendall(body)" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["-"], "'-' reads standard input: name it with --stdin-filename"),
    (["--stdin-filename", "x.py", "-", "a.py"], "'-' (standard input) cannot be linted together with other paths"),
])
def test_a_dash_needs_a_name_and_no_other_path(capsys, isolated, argv, message):
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("nagle-lint: error: " + message)



@pytest.mark.parametrize(("argv", "message"), [
    (["--jobs", "0", "a.py"], "--jobs must be at least 1"),
    (["--quiet", "--verbose", "a.py"], "--quiet and --verbose ask for opposite things: give one"),
    (["--fix", "--stdin-filename", "x.py", "-"], "--fix changes files: it cannot read standard input"),
    (["--diff", "--stdin-filename", "x.py", "-"], "--diff changes files: it cannot read standard input"),
])
def test_options_that_cannot_go_together_are_refused(capsys, isolated, argv, message):
    write(isolated, "a.py", SPLIT)
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", f"nagle-lint: error: {message}\n")


# --- suppressions ------------------------------------------------------------------

SUPPRESSED = """\
import socket


def on_the_line(host, port, head, body):
    sock = socket.create_connection((host, port))
    sock.sendall(head)
    sock.sendall(body)  # nagle-lint: ignore[NGL001] -- the peer reads lazily
    return sock.recv(4096)


def on_the_line_above(host, port, head, body):
    sock = socket.create_connection((host, port))
    sock.sendall(head)
    # nagle-lint: ignore[NGL001] -- measured: the peer answers at once
    sock.sendall(body)
    return sock.recv(4096)


def without_reason(host, port, head, body):
    sock = socket.create_connection((host, port))
    sock.sendall(head)
    sock.sendall(body)  # nagle-lint: ignore[NGL001]
    return sock.recv(4096)


def another_rule(host, port, head, body):
    sock = socket.create_connection((host, port))
    sock.sendall(head)
    sock.sendall(body)  # nagle-lint: ignore[NGL003] -- a reason for another rule
    return sock.recv(4096)


def every_rule(host, port, head, body):
    sock = socket.create_connection((host, port))
    sock.sendall(head)
    sock.sendall(body)  # nagle-lint: ignore -- every rule on this line
    return sock.recv(4096)


def two_lines_above(host, port, head, body):
    sock = socket.create_connection((host, port))
    # nagle-lint: ignore[NGL001] -- too far away to count
    sock.sendall(head)
    sock.sendall(body)
    return sock.recv(4096)
"""


def test_suppressions(capsys, isolated):
    write(isolated, "sup.py", SUPPRESSED)
    code, out, err = run(capsys, "sup.py")
    assert code == 1
    got = finding_lines(out)
    assert [(line, rule) for _, line, rule in got] == [(22, "NGL001"), (29, "NGL001"), (44, "NGL001")]
    without_reason = out.splitlines()[0]
    assert "suppression on line 22 was ignored" in without_reason
    assert "reason" in without_reason
    assert "ignored" not in out.splitlines()[1]
    assert "3 suppressed" in err


@pytest.mark.parametrize("reason", ["TODO", "todo: measure it", "FIXME", "XXX", "tbd", "...", "\u2026", "TBD."])
def test_a_placeholder_is_no_reason(capsys, isolated, reason):
    source = SPLIT.replace("sock.sendall(body)", f"sock.sendall(body)  # nagle-lint: ignore[NGL001] -- {reason}")
    write(isolated, "sup.py", source)
    code, out, _ = run(capsys, "sup.py")
    assert code == 1
    [line] = out.splitlines()
    assert "NGL001" in line and f"suppression on line {SPLIT_LINE} was ignored: give its reason" in line


@pytest.mark.parametrize("reason", ["todos are elsewhere: the peer answers at once", "tbdx protocol: one message"])
def test_a_reason_that_merely_starts_like_a_placeholder_counts(capsys, isolated, reason):
    source = SPLIT.replace("sock.sendall(body)", f"sock.sendall(body)  # nagle-lint: ignore[NGL001] -- {reason}")
    write(isolated, "sup.py", source)
    assert run(capsys, "sup.py")[:2] == (0, "")


STALE = """\
import socket


def fixed(host, port, request):
    sock = socket.create_connection((host, port))
    sock.sendall(request)  # nagle-lint: ignore[NGL001] -- one record for the peer
    return sock.recv(4096)
"""

NO_SOCKET = """\
def render(rows):
    return "\\n".join(rows)  # nagle-lint: ignore[ngl009, NGL001] -- written in one call
"""


@pytest.mark.parametrize("source", [SUPPRESSED, NO_SOCKET], ids=["socket-code", "skipped-by-the-byte-scan"])
def test_a_suppression_naming_an_unknown_rule_is_a_warning(capsys, isolated, source):
    """As ruff warns of unknown codes in `noqa`: whatever the rules selected,
    also in a file the byte scan skips unparsed, and again from the cache."""
    write(isolated, "x.py", source.replace("ignore[NGL003]", "ignore[NGL009]").replace("ngl009", "NGL009"))
    for argv in (["x.py"], ["x.py"], ["--no-cache", "--select", "NGL100", "x.py"]):
        code, _, err = run(capsys, *argv)
        assert code in (0, 1)
        warnings = [line for line in err.splitlines() if "unknown rule" in line]
        assert len(warnings) == 1 and warnings[0].startswith("nagle-lint: warning: x.py: suppression of an unknown "
                                                             "rule: NGL009 (line "), err


def test_unused_suppressions_are_reported_only_when_selected(capsys, isolated):
    write(isolated, "x.py", STALE)
    write(isolated, "none.py", NO_SOCKET)
    assert reported_rules(capsys, "x.py", "none.py") == (0, [])
    code, out, _ = run(capsys, "--select", "NGL001,NGL100", "x.py", "none.py")
    assert code == 1
    assert [(p, n, rule) for p, n, rule in finding_lines(out)] == [("none.py", 2, "NGL100"), ("x.py", 6, "NGL100")]
    assert "unused suppression: no NGL001 finding on this line or the next; remove the comment" in out
    # Named by the comment itself, the rule keeps quiet there.
    write(isolated, "x.py", STALE.replace("ignore[NGL001]", "ignore[NGL001, NGL100]"))
    assert reported_rules(capsys, "--select", "NGL001,NGL100", "x.py") == (0, [])
    # A rule that did not run is not judged: nothing is known of its findings.
    write(isolated, "x.py", STALE)
    assert reported_rules(capsys, "--select", "NGL100", "x.py") == (0, [])


def test_a_suppression_of_a_finding_under_the_confidence_shown_is_in_use(capsys, isolated):
    """Removing it would bring the finding back at the default confidence."""
    write(isolated, "x.py", MEDIUM.replace("sock.sendall(body)", "sock.sendall(body)  # nagle-lint: ignore[NGL001] -- x"))
    assert reported_rules(capsys, "--select", "NGL001,NGL100", "--min-confidence", "high", "x.py") == (0, [])
    write(isolated, "x.py", JOINED.replace("sock.sendall(head + body)", "sock.sendall(head + body)  # nagle-lint: ignore[NGL001] -- x"))
    assert reported_rules(capsys, "--select", "NGL001,NGL100", "--min-confidence", "high", "x.py") == (1, ["NGL100"])


def reported_rules(capsys, *argv) -> tuple[int, list[str]]:
    code, out, err = run(capsys, *argv)
    assert code in (0, 1), err
    return code, [rule for _, _, rule in finding_lines(out)]


def test_suppressed_findings_are_in_json_only_when_asked_for(capsys, isolated):
    write(isolated, "sup.py", SUPPRESSED)
    _, out, _ = run(capsys, "--format", "json", "sup.py")
    assert {f["line"]: f["suppressed"] for f in json.loads(out)["findings"]} == {22: None, 29: None, 44: None}
    _, out, _ = run(capsys, "--format", "json", "--include-suppressed", "sup.py")
    findings = {f["line"]: f["suppressed"] for f in json.loads(out)["findings"]}
    assert findings == {
        7: "the peer reads lazily",
        15: "measured: the peer answers at once",
        22: None,
        29: None,
        36: "every rule on this line",
        44: None,
    }


def test_only_suppressed_findings_exit_0(capsys, isolated):
    source = SPLIT.replace("sock.sendall(body)", "sock.sendall(body)  # nagle-lint: ignore[NGL001] -- one-off tool")
    write(isolated, "sup.py", source)
    code, out, _ = run(capsys, "sup.py")
    assert (code, out) == (0, "")


@pytest.mark.parametrize("ext, source", [
    ("java", """\
        import java.io.OutputStream;
        import java.net.Socket;

        class Client {
            int call(String host, byte[] head, byte[] body) throws Exception {
                Socket socket = new Socket(host, 80);
                OutputStream out = socket.getOutputStream();
                out.write(head);
                out.write(body); // nagle-lint: ignore[NGL001] -- {reason}
                return socket.getInputStream().read();
            }
        }
        """),
    ("c", """\
        #include <sys/socket.h>
        #include <unistd.h>

        int call(const char *h, const char *b, char *r)
        {
            int fd = socket(AF_INET, SOCK_STREAM, 0);
            write(fd, h, 4);
            /* nagle-lint: ignore[NGL001] -- {reason} */
            write(fd, b, 4);
            return read(fd, r, 4);
        }
        """),
])
def test_suppressions_in_java_and_c_comments(capsys, isolated, ext, source):
    write(isolated, f"with_reason.{ext}", source.replace("{reason}", "a reason"))
    write(isolated, f"without.{ext}", source.replace(" -- {reason}", ""))
    code, out, _ = run(capsys, f"with_reason.{ext}")
    assert (code, out) == (0, "")
    code, out, _ = run(capsys, f"without.{ext}")
    assert code == 1
    assert [(Path(p).name, rule) for p, _, rule in finding_lines(out)] == [(f"without.{ext}", "NGL001")]
    assert "was ignored" in out


# --- internal errors -----------------------------------------------------------------


def _boom(*args, **kwargs):
    raise RuntimeError("something broke inside")


def test_internal_error_is_one_line_without_traceback(capsys, isolated, monkeypatch):
    import nagle_lint.runner

    monkeypatch.setattr(nagle_lint.runner, "run_planned", _boom)
    write(isolated, "split.py", SPLIT)
    code, out, err = run(capsys, "split.py")
    assert code == 2
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert "internal error" in err and "something broke inside" in err and "--debug" in err


def test_internal_error_with_debug_shows_the_exception(capsys, isolated, monkeypatch):
    import nagle_lint.runner

    monkeypatch.setattr(nagle_lint.runner, "run_planned", _boom)
    write(isolated, "split.py", SPLIT)
    with pytest.raises(RuntimeError, match="something broke inside"):
        main(["--debug", "split.py"])


# --- as a real process ----------------------------------------------------------------


def _subprocess(args, cwd):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "nagle_lint", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def test_subprocess_findings_and_exit_codes(tmp_path):
    write(tmp_path, "split.py", SPLIT)
    write(tmp_path, "clean.py", JOINED)
    p = _subprocess(["split.py", "clean.py"], tmp_path)
    assert p.returncode == 1, p.stderr
    assert p.stdout.startswith(f"split.py:{SPLIT_LINE}:5: NGL001 ")
    assert p.stderr.strip().splitlines()[-1].startswith("Found 1 finding")
    p = _subprocess(["clean.py"], tmp_path)
    assert (p.returncode, p.stdout) == (0, "")
    p = _subprocess(["--bogus"], tmp_path)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    p = _subprocess(["nothing-here.py"], tmp_path)
    assert p.returncode == 2 and "Traceback" not in p.stderr


def test_subprocess_version_and_explain(tmp_path):
    p = _subprocess(["--version"], tmp_path)
    assert (p.returncode, p.stdout.strip()) == (0, f"nagle-lint {__version__}")
    p = _subprocess(["explain", "NGL004"], tmp_path)
    assert p.returncode == 0
    assert p.stdout == all_rules()["NGL004"].body


def _entry_with(prelude: str, args, cwd, **environ):
    """`entry()` run as the command is, after `prelude` (Python source), with `environ` added."""
    code = f"import sys\n{prelude}\nsys.argv = ['nagle-lint', *{list(args)!r}]\nfrom nagle_lint.cli import entry\nentry()\n"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # the output buffered, as it usually is
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(environ)
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def test_the_command_ends_at_once_with_its_output_whole(tmp_path):
    """The command skips the interpreter's ending, not the output (flushed:
    a report bigger than any buffer arrives whole) nor its exit status;
    NAGLE_LINT_NO_HARD_EXIT=1 ends it as usual, with what is registered
    to run at exit."""
    for i in range(40):
        write(tmp_path, f"split{i}.py", SPLIT)
    prelude = "import atexit\natexit.register(print, 'registered ran')"
    p = _entry_with(prelude, ["--format", "json", "."], tmp_path)
    assert p.returncode == 1, p.stderr
    assert len(json.loads(p.stdout)["findings"]) == 40
    p = _entry_with(prelude, ["--format", "json", "."], tmp_path, NAGLE_LINT_NO_HARD_EXIT="1")
    assert p.returncode == 1, p.stderr
    report, _, tail = p.stdout.rpartition("}\n")
    assert tail == "registered ran\n"
    assert len(json.loads(report + "}")["findings"]) == 40
