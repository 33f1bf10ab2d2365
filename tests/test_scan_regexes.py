"""The scans' regexes run on every supported Python (3.10 has no possessive
quantifiers) and find what the possessive forms they replace found."""

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from nagle_lint.languages import c_scan, scan

FIXTURES = sorted(p for p in (Path(__file__).parent.parent / "fixtures").rglob("*") if p.is_file())

# The possessive forms (Python 3.11+), as they were written first.
POSSESSIVE = {
    "calls": (scan._CALLS_BACKWARDS, rb"\(\s*+(\w++)(?<![0-9])(?:\.(\w++)(?<=[A-Z]))?"),
    "sites": (scan._SITES_BACKWARDS,
              rb"\(\s*+(\w++)(?<![0-9])(?![ \t]+ssalc(?!\w))(?=(\.\s*(?:fles|siht)(?![\w.])|[.>]?))"
              rb"(?:\.(\w++)(?<=[A-Z]))?"),
    "definitions": (scan.Scanner._definitions_backwards, rb"\{\s*+\)[^;{}()]*+\(\s*+(\w++)"),
    "directive": (c_scan._DIRECTIVE_LINE, c_scan._DIRECTIVE_LINE.pattern.replace(rb"']+|", rb"']++|", 1)),
}

needs_possessive = pytest.mark.skipif(sys.version_info < (3, 11), reason="possessive quantifiers need Python 3.11")
texts = st.binary(max_size=200) | st.text(alphabet="(){}#;./>\"'\\\n 0a_Z9", max_size=200).map(str.encode)


def _same(ours: re.Pattern, possessive: re.Pattern, data: bytes) -> None:
    for text in (data, data[::-1]):
        assert [m.span() + m.groups() for m in ours.finditer(text)] == \
            [m.span() + m.groups() for m in possessive.finditer(text)]


@needs_possessive
@pytest.mark.parametrize("name", sorted(POSSESSIVE))
def test_the_same_matches_as_the_possessive_form_on_the_fixtures(name):
    ours, source = POSSESSIVE[name]
    possessive = re.compile(source, ours.flags)
    assert ours.pattern != possessive.pattern
    for path in FIXTURES:
        _same(ours, possessive, path.read_bytes())


@needs_possessive
@settings(max_examples=300, deadline=None)
@given(data=texts)
def test_the_same_matches_as_the_possessive_form_on_any_text(data):
    for ours, source in POSSESSIVE.values():
        _same(ours, re.compile(source, ours.flags), data)


def test_a_digit_led_name_is_never_found_in_part():
    # Keys are names read backwards; `9abc(` is no call of `abc`.
    assert scan.called_keys(b"f(x); 9abc(y); ab1(z);") == {b"f", b"1ba"}
