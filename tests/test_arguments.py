"""The lint command's options: argparse built from the one table, with no
abbreviations of long options."""

from __future__ import annotations

import pytest

from nagle_lint.arguments import OPTIONS, UsageError, parse
from nagle_lint.cli import main


@pytest.mark.parametrize("argv", [
    ["--selec", "NGL001", "."],
    ["--output", "src"],  # once taken as --output-file: the report overwrote what it named
    ["--form", "json"],
    ["--sel=NGL001"],
    ["--exit"],
])
def test_an_abbreviated_option_is_an_error(argv):
    with pytest.raises(UsageError, match="unrecognized arguments"):
        parse(argv)


def test_an_abbreviated_option_is_a_usage_error_of_the_command(capsys):
    assert main(["--output", "src"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "nagle-lint: error: unrecognized arguments: --output\n"


def test_every_option_of_the_table_is_read_in_full():
    for names, spec in OPTIONS:
        if not names[0].startswith("-") or spec.get("action") == "version":
            continue
        dest = names[0].lstrip("-").replace("-", "_")
        for name in names:
            if spec.get("action") == "store_true":
                assert getattr(parse([name]), dest) is True, name
            elif spec.get("choices"):
                choice = spec["choices"][-1]
                assert getattr(parse([name, choice]), dest) == choice, name


@pytest.mark.parametrize(("argv", "expected"), [
    (["-qv"], {"quiet": True, "verbose": True}),
    (["-j2", "src"], {"jobs": 2, "paths": ["src"]}),
    (["--format=json", "--", "-weird.py"], {"format": "json", "paths": ["-weird.py"]}),
    (["--select", "NGL001, NGL003", "--ignore=NGL004"], {"select": ["NGL001", "NGL003"], "ignore": ["NGL004"]}),
    (["--max-file-size", "2MB", "--timeout", "0.5"], {"max_file_size": 2_000_000, "timeout": 0.5}),
])
def test_short_flags_values_and_paths(argv, expected):
    args = vars(parse(argv))
    assert {k: args[k] for k in expected} == expected
