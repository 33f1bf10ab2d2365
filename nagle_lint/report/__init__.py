"""Reporters: pure functions from a run's result to text."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..findings import Finding


@dataclass
class Result:
    findings: list[Finding]  # sorted; suppressed ones included
    files: int = 0  # files linted
    problems: list[tuple[str, str]] = field(default_factory=list)  # (path, message): not read or not parsed fully

    @property
    def shown(self) -> list[Finding]:
        return [f for f in self.findings if f.suppressed is None]


def render(fmt: str, result: Result, **options) -> str:
    if fmt == "text":
        from .text import render as r
    elif fmt == "json":
        from .json import render as r
    elif fmt == "sarif":
        from .sarif import render as r
    elif fmt == "github":
        from .github import render as r
    else:
        raise ValueError(fmt)
    return r(result, **options)
