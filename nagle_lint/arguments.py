"""The lint command's options: written once, as data, and read two ways.

Nearly every run (a pre-commit hook, an editor on save, CI) spells its
options out in full.  `read_plain` turns such a command line into the
namespace argparse would give, without importing argparse: its import and
its parser cost about 3 ms, a sixth of a warm run.  Anything else (help,
--version, an abbreviated name, combined short flags, a value that starts
with '-', a bad value) goes to the argparse parser built from the same table,
which decides as it always has."""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace

from . import __version__
from .cache import DIRNAME, ENV
from .config import LEVELS, size_option, timeout_option
from .site import CONFIDENCES


class UsageError(Exception):
    pass


def _csv(value: str) -> list[str]:
    return [v for v in (x.strip() for x in value.split(",")) if v]


DESCRIPTION = "Find socket code that stalls on Nagle's algorithm and delayed ACKs (Python, Java, C)."
EPILOG = ("Subcommands: 'nagle-lint rules' lists the rules, 'nagle-lint explain NGL001' prints one rule's "
          "document, 'nagle-lint demo' measures the stall on this machine's loopback.")

# (names, argparse's keywords), in the order of the help.
OPTIONS = (
    (("paths",), dict(nargs="*", metavar="PATH", help="files or folders to lint (default: .)")),
    (("--select",), dict(type=_csv, metavar="IDS", help="only these rules (ids or prefixes, comma-separated)")),
    (("--ignore",), dict(type=_csv, metavar="IDS", help="skip these rules (ids or prefixes)")),
    (("--exclude",), dict(type=_csv, metavar="GLOBS", help="skip paths matching these gitignore patterns (added to the config's)")),
    (("--force-exclude",), dict(action="store_true", help="apply excludes even to files named on the command line")),
    (("--format",), dict(choices=("text", "json", "sarif", "github"), default="text",
                         help="output format (default: text); github: workflow-command annotations")),
    (("--include-suppressed",), dict(action="store_true", help="keep suppressed findings in SARIF output")),
    (("--baseline",), dict(metavar="FILE", help="report only findings not recorded in this baseline")),
    (("--write-baseline",), dict(metavar="FILE", help="record the current findings in FILE (then exit 0)")),
    (("--diff-base",), dict(metavar="REF", help="report only findings on lines added or changed since git REF")),
    (("--output-file", "-o"), dict(metavar="FILE", help="write the report to FILE instead of standard output")),
    (("--fail-on",), dict(choices=LEVELS, help="lowest level that makes the exit code 1 (default: warning)")),
    (("--min-confidence",), dict(choices=CONFIDENCES, help="hide findings less sure than this (default: medium)")),
    (("--exit-zero",), dict(action="store_true", help="exit 0 even when there are findings")),
    (("--config",), dict(metavar="FILE", help="read settings from FILE (any name: its [tool.nagle-lint] table, else its keys) "
                                                    "instead of the nearest pyproject.toml")),
    (("--jobs", "-j"), dict(type=int, metavar="N", help="worker processes (default: the CPUs available)")),
    (("--max-file-size",), dict(type=size_option, metavar="SIZE",
                                help="skip (and report) files bigger than this: bytes, or e.g. 2MB "
                                     "(default: 1MB; 0: no limit)")),
    (("--timeout",), dict(type=timeout_option, metavar="SECONDS",
                          help="time budget to parse and model one file (default: 10; 0: no limit)")),
    (("--no-cache",), dict(action="store_true", help="do not read or write the result cache")),
    (("--cache-dir",), dict(metavar="DIR", help=f"keep the result cache in DIR (default: ${ENV}, else {DIRNAME}/ "
                                                 "at the project's root)")),
    (("--stdin-filename",), dict(metavar="PATH",
                                 help="lint standard input as if it were the file PATH (for editors: unsaved buffers)")),
    (("--show-files",), dict(action="store_true", help="print the files that would be linted, then exit 0")),
    (("--show-settings",), dict(action="store_true", help="print the settings in force and where they come from, "
                                                          "then exit 0")),
    (("--quiet", "-q"), dict(action="store_true", help="print findings only: no summary, no warnings")),
    (("--verbose", "-v"), dict(action="store_true", help="list every file that had syntax errors")),
    (("--debug",), dict(action="store_true", help="show tracebacks of internal errors")),
    (("--version",), dict(action="version", version=f"nagle-lint {__version__}")),
)


def _plain_options():
    """name -> (dest, takes a value, type, choices), and the defaults, for the
    options `read_plain` may set (--version is argparse's to print)."""
    by_name, defaults = {}, {}
    for names, spec in OPTIONS:
        action = spec.get("action")
        if not names[0].startswith("-") or action == "version":
            continue
        dest = names[0].lstrip("-").replace("-", "_")
        defaults[dest] = False if action == "store_true" else spec.get("default")
        for name in names:
            by_name[name] = (dest, action is None, spec.get("type"), spec.get("choices"))
    return by_name, defaults


_BY_NAME, _DEFAULTS = _plain_options()


def read_plain(argv: list[str]):
    """The namespace argparse would make of `argv` if every option is named in
    full, on its own (`-q`, `--jobs 2`, `--format=json`), with a value that
    does not start with '-', and the paths are given in one run; else None."""
    values = dict(_DEFAULTS)
    paths = []
    after_paths = False  # argparse takes one run of paths: a path after an option that follows them is an error
    rest = iter(argv)
    for arg in rest:
        if arg[:1] != "-" or arg == "-":
            if after_paths:
                return None
            paths.append(arg)
            continue
        name, eq, value = arg.partition("=") if arg[:2] == "--" else (arg, "", "")
        option = _BY_NAME.get(name)
        if option is None:
            return None
        after_paths = bool(paths)
        dest, takes_value, convert, choices = option
        if not takes_value:
            if eq:
                return None
            values[dest] = True
            continue
        if not eq:
            value = next(rest, None)
            if value is None or value[:1] == "-":
                return None
        if convert is not None:
            try:
                value = convert(value)
            except Exception:  # argparse words the error
                return None
        if choices is not None and value not in choices:
            return None
        values[dest] = value
    return SimpleNamespace(paths=paths, **values)


def build_parser():
    """The argparse parser of the same options: help, errors, and every
    command line `read_plain` leaves to it."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            raise UsageError(message)

    class Formatter(argparse.HelpFormatter):
        """argparse's own, with the terminal's width asked once: argparse makes
        a formatter for every argument it is given."""

        def __init__(self, prog, **options):
            if options.get("width") is None:
                options["width"] = columns - 2  # as argparse has it
            super().__init__(prog, **options)

    columns = _terminal_columns()
    parser = Parser(prog="nagle-lint", formatter_class=Formatter, description=DESCRIPTION, epilog=EPILOG)
    for names, spec in OPTIONS:
        parser.add_argument(*names, **spec)
    return parser


def parse(argv: list[str]):
    args = read_plain(argv)
    return args if args is not None else build_parser().parse_args(argv)


def _terminal_columns() -> int:
    """The terminal's width as shutil.get_terminal_size tells it (COLUMNS,
    else the terminal's, else 80), without importing shutil (and the
    compression modules it imports)."""
    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80
