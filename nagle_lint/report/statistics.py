"""`--statistics`: how many findings each rule has, most first, as ruff
prints them (`count<TAB>rule<TAB>name`), or as a JSON array with --format json."""

from __future__ import annotations

import json
from collections import Counter

from ..rules import all_rules


def counts(result, include_suppressed: bool = False) -> list[dict]:
    rules = all_rules()
    found = Counter(f.rule for f in result.findings if include_suppressed or f.suppressed is None)
    return [{"code": rule, "name": rules[rule].name if rule in rules else rule, "count": n}
            for rule, n in sorted(found.items(), key=lambda item: (-item[1], item[0]))]


def render(result, as_json: bool = False, include_suppressed: bool = False) -> str:
    rows = counts(result, include_suppressed)
    if as_json:
        return json.dumps(rows, indent=2) + "\n"
    width = max((len(str(r["count"])) for r in rows), default=0)
    return "".join(f"{r['count']:>{width}}\t{r['code']}\t{r['name']}\n" for r in rows)
