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


# --format's names -> the module under nagle_lint/report that renders them.
FORMATS = {
    "full": "full",
    "concise": "text",
    "text": "text",  # the name concise had before; kept so that existing hooks and workflows run on
    "json": "json",
    "json-lines": "jsonlines",
    "sarif": "sarif",
    "github": "github",
    "rdjson": "rdjson",
    "gitlab": "gitlab",
    "junit": "junit",
}

FINGERPRINTED = ("sarif", "gitlab")


def render(fmt: str, result: Result, include_suppressed: bool = False, **options) -> str:
    """The report in format `fmt`.  Suppressed findings are left out here,
    once for every format, unless asked for; reporters that are given them
    mark them with their reason."""
    from importlib import import_module

    if fmt not in FORMATS:
        raise ValueError(fmt)
    if fmt in FINGERPRINTED:  # a finding's fingerprint counts the run's findings on its line, suppressed ones too
        from ..fingerprint import attach

        attach(result.findings, options.get("root"), options.get("lines"))
    if not include_suppressed:
        result = Result(result.shown, result.files, result.problems)
    return import_module(f".{FORMATS[fmt]}", __name__).render(result, include_suppressed=include_suppressed,
                                                              **options)
