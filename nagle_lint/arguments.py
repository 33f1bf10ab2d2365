"""The lint command's options: written once, as data, read by argparse."""

from __future__ import annotations

import argparse
import sys

from . import __version__
from .cache import DIRNAME, ENV
from .config import LEVELS, size_option, timeout_option
from .report import FORMATS
from .site import CONFIDENCES


class UsageError(Exception):
    pass


def _csv(value: str) -> list[str]:
    return [v for v in (x.strip() for x in value.split(",")) if v]


DESCRIPTION = "Find socket code that stalls on Nagle's algorithm and delayed ACKs (Python, Java, C)."
EPILOG = ("Subcommands: 'nagle-lint check PATH...' lints (as the bare form does, where the first path is no "
          "subcommand's name), 'nagle-lint rules' lists the rules, 'nagle-lint explain NGL001' prints one rule's "
          "document, 'nagle-lint demo' measures the stall on this machine's loopback, 'nagle-lint clean' removes "
          "the result cache, 'nagle-lint help SUBCOMMAND' tells more.")

# (names, argparse's keywords), in the order of the help.
OPTIONS = (
    (("paths",), dict(nargs="*", metavar="PATH",
                      help="files or folders to lint (default: .); '-' is standard input (name it with "
                           "--stdin-filename)")),
    (("--select",), dict(type=_csv, metavar="IDS", help="only these rules (ids, names or prefixes, comma-separated; "
                                                        "ALL: every rule, also those off by default)")),
    (("--ignore",), dict(type=_csv, metavar="IDS", help="skip these rules (ids, names or prefixes)")),
    (("--exclude",), dict(type=_csv, metavar="GLOBS", help="skip paths matching these gitignore patterns, written from "
                                                          "the current folder (added to the config's)")),
    (("--force-exclude",), dict(action="store_true", help="apply excludes even to files named on the command line")),
    (("--format", "--output-format"), dict(
        choices=tuple(FORMATS), metavar="FORMAT",
        help=f"output format: {', '.join(FORMATS)} (default: full on a terminal, else concise; text is concise)")),
    (("--statistics",), dict(action="store_true", help="print how many findings each rule has instead of them")),
    (("--include-suppressed",), dict(action="store_true",
                                     help="keep suppressed findings in the report, marked with their reason")),
    (("--baseline",), dict(metavar="FILE", help="report only findings not recorded in this baseline")),
    (("--write-baseline",), dict(metavar="FILE", help="record the current findings in FILE (then exit 0)")),
    (("--diff-base",), dict(metavar="REF", help="report only findings on lines added or changed since git REF")),
    (("--fix",), dict(action="store_true", help="apply the safe fixes, then report what is left")),
    (("--unsafe-fixes",), dict(action="store_true",
                               help="with --fix or --diff: the unsafe fixes too (they may change what happens on "
                                    "errors or partial writes, or edit away from the finding)")),
    (("--diff",), dict(action="store_true", help="print the fixes as a unified diff and change no file "
                                                 "(exit 1 when there is something to fix)")),
    (("--show-fixes",), dict(action="store_true", help="with --fix or --diff: list each fix, by file and line")),
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
                          help="time budget to parse, model and check one file (default: 10; 0: no limit)")),
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


class Parser(argparse.ArgumentParser):
    """argparse with long options spelled out in full only (`--output src` is
    no `--output-file`), and usage errors raised, to be printed in the one
    style of the command's errors."""

    def __init__(self, **options):
        super().__init__(allow_abbrev=False, **options)

    def error(self, message):
        raise UsageError(message)


def print_error(message: str) -> None:
    """Every error of the command, one line in one style."""
    print(f"nagle-lint: error: {message}", file=sys.stderr)


def build_parser(prog: str = "nagle-lint"):
    parser = Parser(prog=prog, description=DESCRIPTION, epilog=EPILOG)
    for names, spec in OPTIONS:
        parser.add_argument(*names, **spec)
    return parser


def parse(argv: list[str], prog: str = "nagle-lint"):
    return build_parser(prog).parse_args(argv)
