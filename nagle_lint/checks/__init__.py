"""The rules.  Adding one: its module here, its document in rules/, its fixtures."""

from __future__ import annotations

from ..findings import Finding
from ..model import FileModel
from . import ngl001_split_write, ngl002_nodelay, ngl003_small_writes, ngl004_cork, ngl005_stop_and_wait
from .flow import analyse

CHECKS = {
    "NGL001": ngl001_split_write.check,
    "NGL002": ngl002_nodelay.check,
    "NGL003": ngl003_small_writes.check,
    "NGL004": ngl004_cork.check,
    "NGL005": ngl005_stop_and_wait.check,
}


def run_checks(model: FileModel, rules: set[str]) -> list[Finding]:
    wanted = [r for r in CHECKS if r in rules]
    if not wanted:
        return []
    analysis = analyse(model)
    findings: dict[tuple, Finding] = {}
    for rule in wanted:
        for f in CHECKS[rule](model, analysis):
            key = (f.rule, f.site)
            old = findings.get(key)
            if old is None or _rank(f) > _rank(old):
                findings[key] = f
    return sorted(findings.values(), key=Finding.sort_key)


def _rank(f: Finding):
    from ..model import CONFIDENCES

    return (f.level == "warning", CONFIDENCES.index(f.confidence), -f.site.line)
