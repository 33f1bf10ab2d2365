"""Every entry of the Python catalogue is needed: the fixtures that name it
(`catalogue: field.entry`, or `catalogue: field.*` for each entry of a
field) give other findings, or other fixes, without it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nagle_lint.fixes import render
from nagle_lint.languages import frontend, scanner
from nagle_lint.languages.python_catalogue import PYTHON
from nagle_lint.languages.python import PythonFrontend
from nagle_lint.languages.python_scan import PythonScanner
from nagle_lint.runner import lint_file
from test_fixtures import ROOT, settings_for

FIXTURES = sorted((ROOT / "fixtures" / "python").glob("*.py"))
TAG = re.compile(r"catalogue:\s*([\w.*]+(?:\s*,\s*[\w.*]+)*)")
ENTRIES = [f"{field}.{entry}" for field, entry in PYTHON.entries()]


def _named() -> dict[str, list[Path]]:
    """Entry -> the fixtures that name it."""
    named: dict[str, list[Path]] = {}
    for path in FIXTURES:
        for tag in {t.strip() for m in TAG.findall(path.read_text(encoding="utf-8")) for t in m.split(",")}:
            field, entry = tag.split(".", 1)
            for one in ([name for f, name in PYTHON.entries() if f == field] if entry == "*" else [entry]):
                named.setdefault(f"{field}.{one}", []).append(path)
    return named


NAMED = _named()


def _findings(path: Path) -> list:
    """At the default confidence and at `low` (an entry may only make a
    connection surer), each with the fix it gets (an entry may only tell
    the fix)."""
    settings = settings_for(path.read_text(encoding="utf-8"))
    found = []
    for s in (settings, settings.replace(min_confidence="low")):
        findings = lint_file(str(path), s)[1]
        fixes = {id(f): f"{fix.title} ({fix.applicability})" for f, fix in render(str(path), path.read_bytes(), findings)}
        found.append(sorted((f.site.line, f.site.col, f.rule, f.confidence, fixes.get(id(f), "")) for f in findings))
    return found


@pytest.fixture
def catalogue(monkeypatch):
    """Lint with another catalogue (new scanners and frontends: what they
    derive from it is cached on them)."""
    def use(cat):
        monkeypatch.setattr(PythonScanner, "catalogue", cat)
        monkeypatch.setattr(PythonFrontend, "catalogue", cat)
        scanner.cache_clear()
        frontend.cache_clear()
    yield use
    scanner.cache_clear()
    frontend.cache_clear()


def test_every_entry_is_named_by_a_fixture():
    assert [e for e in ENTRIES if e not in NAMED] == []


def test_every_name_is_an_entry():
    assert [e for e in NAMED if e not in ENTRIES] == []


@pytest.mark.parametrize("entry", ENTRIES)
def test_the_fixture_named_for_an_entry_needs_it(entry: str, catalogue):
    field, name = entry.split(".", 1)
    paths = NAMED.get(entry)
    if not paths:
        pytest.fail(f"no fixture names {entry}")
    value = next(e for e in getattr(PYTHON, field) if str(e) == name) if field != "libraries" else name
    full = {p: _findings(p) for p in paths}
    catalogue(PYTHON.without(field, value))
    unchanged = [p.name for p in paths if _findings(p) == full[p]]
    assert not unchanged, f"the same findings without {entry}: {unchanged}"
