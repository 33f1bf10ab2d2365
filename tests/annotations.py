"""The inline expectations of a fixture file: `expect: NGL001` on a line where a
finding must be reported; `todo-expect:` (a known miss) and `todo-ok:` (a
known false positive)."""

from __future__ import annotations

import re
from pathlib import Path

MARK = re.compile(r"(?<![\w-])(expect|todo-expect|todo-ok):\s*(NGL\d{3}(?:\s*,\s*NGL\d{3})*)")


def annotations(path: Path) -> dict[str, set[tuple[int, str]]]:
    found = {"expect": set(), "todo-expect": set(), "todo-ok": set()}
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
        for kind, ids in MARK.findall(line):
            for rule in re.findall(r"NGL\d{3}", ids):
                found[kind].add((number, rule))
    return found
