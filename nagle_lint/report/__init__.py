"""Reporters: pure functions from a run's result to text."""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own, without importing typing
if TYPE_CHECKING:
    from ..findings import Finding


class Result:
    """A run's result (written out rather than a dataclass: see Settings)."""

    def __init__(self, findings: list[Finding], files: int = 0, problems: list[tuple[str, str]] | None = None):
        self.findings = findings  # sorted; suppressed ones included
        self.files = files  # files linted
        self.problems = [] if problems is None else problems  # (path, message): not read or not parsed fully

    def __eq__(self, other) -> bool:
        return type(other) is Result and (self.findings, self.files, self.problems) == \
            (other.findings, other.files, other.problems)

    __hash__ = None

    def __repr__(self) -> str:
        return f"Result(findings={self.findings!r}, files={self.files!r}, problems={self.problems!r})"

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
