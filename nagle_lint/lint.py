"""Lint one file's bytes: frontend -> model -> checks -> suppressions."""

from __future__ import annotations

from .checks import run_checks
from .findings import Finding
from .languages import frontend, language_of
from .model import CONFIDENCES
from .noqa import apply_suppressions


def lint_source(path: str, data: bytes, rules: set[str], min_confidence: str = "medium",
                language: str | None = None) -> tuple[list[Finding], int]:
    """Findings for one file (suppressed ones included, marked), and the
    number of syntax errors tree-sitter recovered from."""
    language = language or language_of(path)
    if language is None:
        return [], 0
    fe = frontend(language)
    if not fe.may_find(data, min_confidence):
        return [], 0
    model = fe.lower(path, data)
    floor = CONFIDENCES.index(min_confidence)
    findings = [f for f in run_checks(model, rules) if CONFIDENCES.index(f.confidence) >= floor]
    apply_suppressions(data, findings)
    return findings, model.error_count
