"""Every fixture is its own test: the linter must report exactly the lines
annotated `expect: NGLxxx`, at default settings."""

from __future__ import annotations

from pathlib import Path

import re

import pytest

from annotations import annotations
from nagle_lint.config import Settings
from nagle_lint.runner import lint_file

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted(p for p in (ROOT / "fixtures").rglob("*") if p.suffix in (".py", ".java", ".c", ".h"))


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
    # A rule that is off by default runs where the fixture asks: `fixture-select: NGL005`.
    extra = tuple(re.findall(r"fixture-select:\s*(NGL\d{3})", path.read_text(encoding="utf-8", errors="replace")))
    settings = Settings(select=("NGL",) + extra) if extra else Settings()
    _, findings, problem, _ = lint_file(str(path), settings)
    assert problem is None, problem
    got = {(f.site.line, f.rule) for f in findings if f.suppressed is None}
    rel = path.relative_to(ROOT)
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
    assert not errors, "\n".join(errors)
