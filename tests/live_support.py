"""Support for the live tests: what the linter says of a live program."""

from __future__ import annotations

from functools import lru_cache

from nagle_lint.config import Settings
from nagle_lint.runner import lint_file


@lru_cache(maxsize=None)
def _rules(path: str) -> frozenset[str]:
    _, findings, problem, _ = lint_file(path, Settings())
    assert problem is None, f"{path}: {problem}"
    return frozenset(f.rule for f in findings if f.suppressed is None)


def flagged_rules(path) -> set[str]:
    """The rule ids the linter reports anywhere in the file at `path`, at default settings."""
    return set(_rules(str(path)))
