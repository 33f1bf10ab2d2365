"""In-source suppressions: `nagle-lint: ignore[NGL002] -- reason`, in a comment
on the finding's line or the line above.  A suppression must say why: one
without a reason (or with a placeholder such as `TODO`) suppresses nothing,
and the finding it was meant for says so."""

from __future__ import annotations

import re

from .findings import Finding

PATTERN = re.compile(r"nagle-lint:\s*ignore(?:\[([A-Za-z0-9_, \t]*)\])?[ \t]*(?:--(.*)|\*/[ \t]*)?$")

NO_REASON = " (the suppression on line {line} was ignored: give its reason after '--')"
# A placeholder says there is no reason yet: `-- TODO`, `-- FIXME: later`, `-- tbd`, `-- ...`.
PLACEHOLDER = re.compile(r"(?i)\W*(?:(?:todo|fixme|xxx|tbd)\b.*|[\W_]*)$", re.S)


def parse(data: bytes) -> dict[int, tuple[set[str] | None, str]]:
    """line -> (rule ids, or None for every rule; the reason)."""
    found = {}
    if b"nagle-lint:" not in data:
        return found
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if b"nagle-lint:" not in raw:
            continue
        line = raw.decode("utf-8", "replace")
        m = PATTERN.search(line)
        if not m:
            continue
        ids = None
        if m.group(1) is not None:
            ids = {i.strip().upper() for i in m.group(1).split(",") if i.strip()}
        reason = (m.group(2) or "").strip()
        if reason.endswith("*/"):  # the end of a C block comment is not part of the reason
            reason = reason[:-2].rstrip()
        found[number] = (ids, reason)
    return found


def apply_suppressions(marks: dict, findings: list[Finding]) -> None:
    """Mark each suppressed finding with its justification (in place), from
    the file's `parse()`d suppression comments."""
    if not marks:
        return
    for f in findings:
        for line in (f.site.line, f.site.line - 1):
            mark = marks.get(line)
            if mark and (mark[0] is None or f.rule in mark[0]):
                if not PLACEHOLDER.match(mark[1]):
                    f.suppressed = mark[1]
                else:
                    f.message += NO_REASON.format(line=line)
                break
