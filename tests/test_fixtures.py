"""Every fixture is its own test: the linter must report exactly the lines
annotated `expect: NGLxxx`, at default settings."""

from __future__ import annotations

from pathlib import Path

import re

import pytest

from annotations import annotations
from nagle_lint.config import Settings
from nagle_lint.runner import lint_file, run

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (".py", ".java", ".c", ".h")
# A folder named *_project is linted as one run: calls are followed across its files.
PROJECTS = sorted(p for p in (ROOT / "fixtures").rglob("*_project") if p.is_dir())
FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*") if p.suffix in SOURCES
                  and not any(part.endswith("_project") for part in p.relative_to(ROOT / "fixtures").parts[:-1]))


def test_fixture_counts():
    """Each language has at least 10 positive and 10 negative fixtures."""
    for lang in ("python", "java", "c"):
        files = [p for p in FIXTURES if p.parent.name == lang]
        positive = [p for p in files if annotations(p)["expect"]]
        assert len(positive) >= 10, lang
        assert len(files) - len(positive) >= 10, lang


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_fixture(path: Path):
    want = annotations(path)
    _, findings, problem, _ = lint_file(str(path), settings_for(path.read_text(encoding="utf-8", errors="replace")))
    assert problem is None, problem
    got = {(f.site.line, f.rule) for f in findings if f.suppressed is None}
    errors = compare(path.relative_to(ROOT), want, got, findings)
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("folder", PROJECTS, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_project_fixture(folder: Path):
    """The files of a *_project folder, linted together, give exactly their annotations."""
    files = sorted(p for p in folder.rglob("*") if p.suffix in SOURCES)
    assert len(files) >= 2
    result = run([str(folder)], settings_for("".join(p.read_text(encoding="utf-8") for p in files)), jobs=1)
    assert not [m for _, m in result.problems if "syntax" not in m], result.problems
    errors = []
    for path in files:
        here = [f for f in result.findings if Path(f.path) == path]
        got = {(f.site.line, f.rule) for f in here if f.suppressed is None}
        errors += compare(path.relative_to(ROOT), annotations(path), got, here)
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_the_byte_scan_hides_no_finding_of_the_confidence_asked(path: Path):
    """The byte scan skips a file at the default confidence only where the
    lowering would make nothing there at least medium-sure: the default run
    reports exactly the medium- and high-confidence findings of a run at
    `low`, which lets every file with a send through."""
    settings = settings_for(path.read_text(encoding="utf-8", errors="replace"))
    _, default, _, _ = lint_file(str(path), settings.replace(min_confidence="medium"))
    _, every, _, _ = lint_file(str(path), settings.replace(min_confidence="low"))
    assert default == [f for f in every if f.confidence != "low"]


def settings_for(source: str) -> Settings:
    # A rule that is off by default runs where the fixture asks: `fixture-select: NGL005`;
    # findings of low confidence are reported where it asks: `fixture-confidence: low`.
    extra = tuple(re.findall(r"fixture-select:\s*(NGL\d{3})", source))
    settings = Settings(select=("NGL",) + extra) if extra else Settings()
    confidence = re.search(r"fixture-confidence:\s*(\w+)", source)
    return settings.replace(min_confidence=confidence.group(1)) if confidence else settings


def compare(rel, want, got, findings) -> list[str]:
    errors = []
    for line, rule in sorted(want["expect"] - got):
        errors.append(f"missing: {rel}:{line}: {rule}")
    for line, rule in sorted(got - want["expect"] - want["todo-ok"]):
        msg = next(f.message for f in findings if (f.site.line, f.rule) == (line, rule))
        errors.append(f"unexpected: {rel}:{line}: {rule} {msg}")
    for line, rule in sorted(want["todo-expect"] & got):
        errors.append(f"todo-expect now found, promote it to expect: {rel}:{line}: {rule}")
    for line, rule in sorted(want["todo-ok"] - got):
        errors.append(f"todo-ok no longer reported, remove it: {rel}:{line}: {rule}")
    return errors
