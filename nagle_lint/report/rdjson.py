"""reviewdog's Diagnostic Format as one JSON document (`rdjson`): reviewdog
posts it as review comments on GitHub, GitLab, Gitea or Bitbucket
(`reviewdog -f=rdjson`).

Positions are reviewdog's: 1-based lines, 1-based columns counted in UTF-8
bytes, the end exclusive.  The finding's sends and read are its related
locations.  A suppressed finding (with --include-suppressed) has INFO
severity and its reason in the message."""

from __future__ import annotations

import json

from ..fingerprint import Lines
from ..rules import all_rules
from .sarif import INFORMATION_URI, TOOL_NAME
from .text import suppressed_note

SEVERITY = {"error": "ERROR", "warning": "WARNING", "note": "INFO"}


def byte_column(line: str | None, column: int) -> int:
    """A 1-based character column as a 1-based UTF-8 byte column."""
    return column if line is None else len(line[: column - 1].encode("utf-8")) + 1


def position(path: str, line: int, column: int, lines: Lines) -> dict:
    return {"line": line, "column": byte_column(lines.line(path, line), column)}


def span(path: str, site, lines: Lines) -> dict:
    return {"start": position(path, site.line, site.col, lines),
            "end": position(path, site.end_line, site.end_col, lines)}


def diagnostic(f, lines: Lines) -> dict:
    rule = all_rules().get(f.rule)
    d = {
        "message": f.message + suppressed_note(f),
        "location": {"path": f.path, "range": span(f.path, f.site, lines)},
        "severity": "INFO" if f.suppressed is not None else SEVERITY.get(f.level, "WARNING"),
        "code": {"value": f.rule, **({"url": rule.url} if rule else {})},
    }
    if f.related:
        d["related_locations"] = [
            {"message": s.label, "location": {"path": s.path or f.path, "range": span(s.path or f.path, s.site, lines)}}
            for s in f.related
        ]
    return d


def render(result, lines: Lines | None = None, **_) -> str:
    lines = lines or Lines()
    doc = {
        "source": {"name": TOOL_NAME, "url": INFORMATION_URI},
        "diagnostics": [diagnostic(f, lines) for f in result.findings],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
