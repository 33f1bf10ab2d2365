"""`defines` (which names a file the byte scan skipped defines, asked in
later rounds) checks only the names one pass over the file finds in a
definition's place: it answers what checking every name where it stands
answers, in each language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nagle_lint.languages import scanner
from nagle_lint.languages.scan import whole_words

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {lang: sorted((ROOT / "fixtures").rglob(f"*.{ext}"))[:30] for lang, ext in
           (("c", "c"), ("java", "java"), ("python", "py"))}

CRAFTED = {
    "c": b"""
static int helper (int a, char *b)
{ return a; }
int declared_only(int a);
void k_and_r(a) int a; { }
int not_c(void) throws Oops, Other {
}
#define CALL(x) called(x) { }
int outer(void) { if (inner(1)) { called_too(2); } return 0; }
int spaced
  (void)
  {
  }
""",
    "java": b"""
@Deprecated public final class Outer { interface Inner {} record Point(int x) {} enum Kind { A }
  void method() { new Outer(); } }
class
   Spaced {}
""",
    "python": b"""
@dataclass
class Data:
    def method(self): pass
async def coro(): pass
def  spaced (): pass
call(Data)
""",
}
DEFINED = {"c": {"helper", "called", "spaced", "outer"},
           "java": {"Outer", "Inner", "Point", "Kind", "Spaced"},
           "python": {"Data", "method", "coro", "spaced"}}
NOT_DEFINED = {"c": {"declared_only", "called_too", "inner", "not_c"},  # C has no `throws`
               "java": {"method", "Deprecated"},
               "python": {"call", "dataclass"}}


def everywhere(scan, data: bytes, names) -> set[str]:
    """Every name checked where it stands (what `defines` did before its pass)."""
    before, after = scan.definition_before, scan.definition_after
    return {n for n in names if any((before is None or before.search(data, max(0, at - 64), at))
                                    and after.match(data, at + len(n)) for at in whole_words(data, n.encode()))}


CASES = [(lang, "crafted", data) for lang, data in CRAFTED.items()] + \
        [(lang, p.name, p.read_bytes()) for lang, paths in SOURCES.items() for p in paths]


@pytest.mark.parametrize("lang, name, data", CASES, ids=[f"{lang}-{name}" for lang, name, _ in CASES])
def test_the_pass_that_finds_definitions_misses_none(lang: str, name: str, data: bytes):
    scan = scanner(lang)
    names = set(re.findall(r"[A-Za-z_]\w*", data.decode("utf-8", "replace")))
    expected = everywhere(scan, data, names)
    assert scan.defines(data, names) == expected
    if name == "crafted":
        assert expected >= DEFINED[lang] and not expected & NOT_DEFINED[lang]


@pytest.mark.parametrize("lang, name, data", CASES, ids=[f"{lang}-{name}" for lang, name, _ in CASES])
def test_the_first_look_holds_wherever_a_name_is_defined(lang: str, name: str, data: bytes):
    """`may_define` (a later round's first look at a skipped file) never rules
    out a file that defines one of the names."""
    scan = scanner(lang)
    names = set(re.findall(r"[A-Za-z_]\w*", data.decode("utf-8", "replace")))
    defined = scan.defines(data, names)
    assert all(scan.may_define({n})(data) for n in defined)
    assert scan.may_define(names)(data) or not defined
    assert not scan.may_define(set())(data)
    if name == "crafted" and lang != "c":  # C's look is for the name anywhere
        assert not scan.may_define(NOT_DEFINED[lang])(data)
