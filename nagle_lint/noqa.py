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


def parse(data: bytes) -> dict[int, tuple[set[str] | None, str, tuple[int, int]]]:
    """line -> (rule ids, or None for every rule; the reason; the columns
    where the comment's directive starts and ends)."""
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
        found[number] = (ids, reason, (m.start() + 1, m.end() + 1))
    return found


def mark_for(marks: dict, f: Finding) -> int | None:
    """The line of the suppression comment that applies to `f`: on its line,
    else on the line above, naming its rule or every rule; or None."""
    for line in (f.site.line, f.site.line - 1):
        mark = marks.get(line)
        if mark and (mark[0] is None or f.rule in mark[0]):
            return line
    return None


def unknown(marks: dict) -> str | None:
    """What a file's suppressions name that is no rule, as one problem
    (ruff warns of unknown codes in its `noqa` comments likewise), or None."""
    if not any(ids for ids, _, _ in marks.values()):
        return None
    from .rules import all_rules

    known = all_rules()
    bad = [(line, i) for line, (ids, _, _) in sorted(marks.items()) for i in sorted(ids or ()) if i not in known]
    if not bad:
        return None
    named = ", ".join(f"{i} (line {line})" for line, i in bad)
    return (f"suppression of an unknown rule: {named}; it suppresses nothing (known: {', '.join(known)})")


def apply_suppressions(marks: dict, findings: list[Finding]) -> None:
    """Mark each suppressed finding with its justification (in place), from
    the file's `parse()`d suppression comments."""
    if not marks:
        return
    for f in findings:
        line = mark_for(marks, f)
        if line is not None:
            reason = marks[line][1]
            if not PLACEHOLDER.match(reason):
                f.suppressed = reason
            else:
                f.message += NO_REASON.format(line=line)
