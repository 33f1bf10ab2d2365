"""Every entry of each language's catalogue is needed: the fixtures of that
language that name it (`catalogue: field.entry`, or `catalogue: field.*`
for each entry of a field) give other findings, or other fixes, without it."""

from __future__ import annotations

import re
from pathlib import Path
from types import MappingProxyType

import pytest

from nagle_lint.fixes import render
from nagle_lint.languages import frontend, scanner
from nagle_lint.languages.c import CFrontend
from nagle_lint.languages.c_scan import CScanner
from nagle_lint.languages.java import JavaFrontend
from nagle_lint.languages.java_scan import JavaScanner
from nagle_lint.languages.python import PythonFrontend
from nagle_lint.languages.python_scan import PythonScanner
from nagle_lint.runner import lint_file
from test_fixtures import ROOT, settings_for

# language -> its byte scan and its frontend (both read `catalogue`), and its fixtures' suffix
LANGUAGES = {"python": ((PythonScanner, PythonFrontend), ".py"), "java": ((JavaScanner, JavaFrontend), ".java"),
             "c": ((CScanner, CFrontend), ".c")}
TAG = re.compile(r"catalogue:\s*([\w.*]+(?:\s*,\s*[\w.*]+)*)")


# The fields whose entries are objects, each known by its name.
NAMED_FIELDS = ("libraries", "protocols")


def entries(cat):
    """(field, entry) for every entry of a catalogue: the unit `without` leaves out."""
    for name, value in vars(cat).items():
        if name in NAMED_FIELDS:
            yield from ((name, one.name) for one in value)
        else:
            yield from ((name, entry) for entry in sorted(value))


def without(cat, field_name: str, entry):
    """The catalogue with one entry left out (of a set, a tuple or a
    mapping's keys; a library or a protocol by its name)."""
    value = getattr(cat, field_name)
    if isinstance(value, MappingProxyType):
        value = {k: v for k, v in value.items() if k != entry}
    elif field_name in NAMED_FIELDS:
        value = tuple(one for one in value if one.name != entry)
    elif isinstance(value, tuple):
        value = tuple(v for v in value if v != entry)
    else:
        value = value - {entry}
    return type(cat)(**{**vars(cat), field_name: value})


def _named(language: str) -> dict[str, list[Path]]:
    """Entry -> the fixtures that name it."""
    cat, suffix = LANGUAGES[language][0][0].catalogue, LANGUAGES[language][1]
    named: dict[str, list[Path]] = {}
    for path in sorted((ROOT / "fixtures" / language).glob("*" + suffix)):
        for tag in {t.strip() for m in TAG.findall(path.read_text(encoding="utf-8")) for t in m.split(",")}:
            field, entry = tag.split(".", 1)
            for one in ([name for f, name in entries(cat) if f == field] if entry == "*" else [entry]):
                named.setdefault(f"{field}.{one}", []).append(path)
    return named


# The entries no fixture shows the need of yet, by field: a known gap, written
# down as `todo-expect:` is for findings; an entry leaves it when a fixture
# names it.  Java's that stay, and why no fixture can:
# - its library types only keep a call on a JDK class (`String.format`) from
#   being looked up among the project's own methods: no finding changes unless
#   a project declares a class of the same name (ServerSocketChannel, whose
#   accept() gives a connection, is tested);
# - a read alone is no finding: the readers among its not-TCP types only keep
#   a file's or memory's reads out of the model; and what is never a stream
#   (DatagramSocket, StringBuilder) makes no event either way: those entries
#   keep the byte scan from reading a file for the writes made on them;
# - Flushable's one call is flush(), and a message's writes reach the
#   connection under another declared type: a fixture would flush each piece
#   through a second field.
# - every language's test folders: a fixture's path is fixtures/<language>/,
#   in no such folder (test_test_sources.py checks them).
TEST_FOLDERS = {"java": "benchmark benchmarks jmh test tests testsuite", "python": "benchmarks test tests testsuite",
                "c": "bench benchmarks test tests testsuite"}
UNTESTED = {"python": {"test_folders": TEST_FOLDERS["python"]}, "c": {"test_folders": TEST_FOLDERS["c"]}, "java": {
    "test_folders": TEST_FOLDERS["java"],
    "not_tcp": ("ByteArrayInputStream DatagramPacket DatagramSocket FileInputStream FileReader MulticastSocket "
                "PipedInputStream RandomAccessFile StringBuffer StringBuilder StringReader"),
    "supertypes": "Flushable",
    "library_types": ("ArrayList Arrays ByteBuffer Channels Collections Executors HashMap InetAddress "
                      "InetSocketAddress Integer List Long Map Math Object Objects Optional SSLContext "
                      "SelectionKey Selector Set StandardCharsets StandardSocketOptions String System Thread "
                      "TimeUnit"),
}}


def _untested(language: str) -> set[str]:
    return {f"{field}.{entry}" for field, entries in UNTESTED.get(language, {}).items() for entry in entries.split()}


ENTRIES = {language: [f"{field}.{entry}" for field, entry in entries(classes[0].catalogue)]
           for language, (classes, _) in LANGUAGES.items()}
NAMED = {language: _named(language) for language in LANGUAGES}


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
    def use(language, cat):
        for cls in LANGUAGES[language][0]:
            monkeypatch.setattr(cls, "catalogue", cat)
        scanner.cache_clear()
        frontend.cache_clear()
    yield use
    scanner.cache_clear()
    frontend.cache_clear()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_named_by_a_fixture(language: str):
    assert [e for e in ENTRIES[language] if e not in NAMED[language] and e not in _untested(language)] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_untested_entries_are_entries_no_fixture_names(language: str):
    assert [e for e in _untested(language) if e not in ENTRIES[language] or e in NAMED[language]] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_name_is_an_entry(language: str):
    assert [e for e in NAMED[language] if e not in ENTRIES[language]] == []


@pytest.mark.parametrize("language, entry", [(lang, e) for lang, entries in ENTRIES.items() for e in entries
                                              if e not in _untested(lang)])
def test_the_fixture_named_for_an_entry_needs_it(language: str, entry: str, catalogue):
    full_catalogue = LANGUAGES[language][0][0].catalogue
    field, name = entry.split(".", 1)
    paths = NAMED[language].get(entry)
    if not paths:
        pytest.fail(f"no fixture names {entry}")
    value = next(e for e in getattr(full_catalogue, field) if str(e) == name) if field not in NAMED_FIELDS else name
    full = {p: _findings(p) for p in paths}
    catalogue(language, without(full_catalogue, field, value))
    unchanged = [p.name for p in paths if _findings(p) == full[p]]
    assert not unchanged, f"the same findings without {entry}: {unchanged}"
