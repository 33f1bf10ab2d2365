"""The quick reading of a command line agrees with argparse wherever it
answers, answers for the command lines hooks, the Action and the docs use,
and spares those runs argparse's import."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from nagle_lint.arguments import UsageError, build_parser, read_plain

ROOT = Path(__file__).resolve().parent.parent

# Words a command line is made of: every option, its abbreviations and
# short forms, good and bad values, paths, and what looks like an option.
WORDS = [
    "--select", "--ignore", "--exclude", "--force-exclude", "--format", "--include-suppressed", "--baseline",
    "--write-baseline", "--diff-base", "--output-file", "-o", "--fail-on", "--min-confidence", "--exit-zero",
    "--config", "--jobs", "-j", "--max-file-size", "--timeout", "--no-cache", "--stdin-filename", "--quiet",
    "-q", "--verbose", "-v", "--debug",
    "--sel", "--form", "--no", "--quie", "--exit", "-qv", "-j2", "-oout.txt", "-j=2", "--", "-", "",
    "--format=json", "--format=xml", "--jobs=2", "--jobs=x", "--select=NGL001,NGL002", "--select=",
    "--exit-zero=1", "--max-file-size=2MB", "--max-file-size=lots", "--timeout=0", "--timeout=-1",
    "--fail-on=error", "--fail-on=note", "--min-confidence=low", "--unknown", "-x",
    "json", "sarif", "text", "xml", "github", "2", "0", "-1", "1.5", "2MB", "lots", "error", "warning", "note", "low",
    "high", "NGL001", "NGL00", "a.py", "src", "src/b.c", "out.sarif", "-weird.py", "with space.py",
    "-dash space", "=", "x=y", "HEAD~1",
]


def both(argv):
    """(read_plain's namespace or None, argparse's namespace or the error)."""
    try:
        full = vars(build_parser().parse_args(argv))
    except UsageError as e:
        full = e
    except SystemExit as e:  # --version, --help
        full = e
    quick = read_plain(argv)
    return (None if quick is None else vars(quick)), full


def test_agrees_with_argparse_on_random_command_lines(capsys):
    rng = random.Random(7)
    answered = 0
    for _ in range(4000):
        argv = [rng.choice(WORDS) for _ in range(rng.randint(0, 6))]
        quick, full = both(argv)
        if quick is not None:
            answered += 1
            assert quick == full, argv
    capsys.readouterr()
    assert answered > 400  # the quick path is not a bystander: it answers a good share


PLAIN = [
    [],
    ["src"],
    ["--force-exclude", "a.py", "b.c", "C.java"],  # the pre-commit hook's entry
    ["--format", "sarif", "--output-file", "out.sarif", "--diff-base", "origin/main", "src"],  # the Action
    ["--exit-zero", "-q", "--format", "json", "."],  # the benchmark
    ["--no-cache", "--jobs", "2", "--select", "NGL001,NGL003", "--ignore=NGL004", "-o", "r.txt", "."],
    ["--stdin-filename", "src/x.py", "--format=github", "--fail-on", "note", "--min-confidence", "low"],
    ["--max-file-size", "2MB", "--timeout", "0.5", "--config", "pyproject.toml", "--verbose", "--debug"],
    ["a.py", "--quiet", "--exclude", "vendor/*,gen"],
]


@pytest.mark.parametrize("argv", PLAIN, ids=lambda a: " ".join(a) or "(none)")
def test_plain_command_lines_are_read_without_argparse(argv):
    quick, full = both(argv)
    assert quick is not None
    assert quick == full


@pytest.mark.parametrize("argv", [
    ["--help"], ["-h"], ["--version"], ["--form", "json"], ["-qv"], ["-j2"], ["--", "-weird.py"],
    ["--jobs", "x"], ["--format", "xml"], ["a.py", "-q", "b.py"], ["--baseline"], ["--jobs", "-1"],
    ["--quiet=1"], ["--max-file-size", "lots"],
], ids=lambda a: " ".join(a))
def test_other_command_lines_are_left_to_argparse(argv):
    assert read_plain(argv) is None


def test_a_plain_run_does_not_import_argparse(tmp_path):
    (tmp_path / "a.py").write_text("import socket\n", encoding="utf-8")
    code = ("import sys\nfrom nagle_lint.cli import main\n"
            "code = main(['--no-cache', '-q', '--format', 'json', 'a.py'])\n"
            "print(code, 'argparse' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "0 False"
