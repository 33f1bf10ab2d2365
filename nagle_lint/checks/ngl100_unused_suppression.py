"""NGL100 unused-suppression: a suppression comment that hides no finding.

Judged on a file's suppression comments once every other finding is known
(`lint.settle`), not on its model."""

from __future__ import annotations

from ..findings import Finding
from ..noqa import mark_for
from ..site import Site

RULE = "NGL100"

MESSAGE = ("unused suppression: {what} on this line or the next; remove {which} (a stale suppression hides the "
           "next real finding here)")


def check(findings: list[Finding], marks: dict, rules_for) -> list[Finding]:
    """The unused suppressions of the files in `marks` (path -> their parsed
    comments) where this rule is selected; `findings`: every finding of the
    rules selected for their files, whatever its confidence, before
    suppression."""
    used: dict[tuple[str, int], set[str]] = {}
    for f in findings:
        line = mark_for(marks.get(f.path, {}), f)
        if line is not None:
            used.setdefault((f.path, line), set()).add(f.rule)
    found = []
    for path, file_marks in marks.items():
        ran = rules_for(path)
        if RULE not in ran:
            continue
        for line, (ids, _, (col, end_col)) in sorted(file_marks.items()):
            hit = used.get((path, line), set())
            if ids is None:
                if hit:
                    continue
                what, which = "it matches no finding", "the comment"
            else:
                # Rules that did not run here (not selected, unknown) are not judged: nothing is known of them.
                unused = sorted(i for i in ids if i in ran and i != RULE and i not in hit)
                if not unused:
                    continue
                what = f"no {', '.join(unused)} finding"
                which = "the comment" if not hit and set(unused) == ids - {RULE} else f"{', '.join(unused)} from it"
            found.append(Finding(RULE, path, Site(line, col, line, end_col), MESSAGE.format(what=what, which=which),
                                 "warning", "high"))
    return found
