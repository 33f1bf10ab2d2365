"""One file's way through: bytes -> frontend -> model; models -> checks ->
findings, filtered by confidence, rules and suppressions."""

from __future__ import annotations

from .findings import Finding
from .languages import frontend, language_of
from .site import CONFIDENCES
from .noqa import apply_suppressions, parse as parse_suppressions
from .prepared import Prepared

TYPE_CHECKING = False  # typing's own, without importing typing
if TYPE_CHECKING:
    from .model import FileModel
    from .project import Wanted


def prepare(path: str, data: bytes, language: str | None = None, wanted: Wanted | None = None,
            before: FileModel | None = None) -> Prepared:
    """Lower a file the byte scan let through.  `wanted`: this is a later
    round, the file matters for what other files need; `before`: its model
    from an earlier round (it is lowered again)."""
    fe = frontend(language or language_of(path))
    if wanted is None:
        model = fe.lower(path, data)
    else:  # a file the byte scan skipped is lowered for what others need of it, not for its own sends
        needed = wanted.needed | wanted.called.get(path, frozenset())
        model = fe.lower(path, data, wanted.effects, needed, own=path in wanted.again, before=before,
                         option_only=wanted.option_only)
    return Prepared(path, model, parse_suppressions(data), model.error_count)


def check(prepared: list[Prepared], project, rules_for, min_confidence: str) -> list[Finding]:
    """The findings of the prepared files' functions, each kept where its rule
    is selected for its file (`rules_for(path)`), marked when suppressed."""
    return settle(raw_findings(prepared, project, selected(prepared, rules_for)), prepared, rules_for, min_confidence)


def selected(prepared: list[Prepared], rules_for) -> set[str]:
    """The rules selected for any of the files."""
    return set().union(*(rules_for(p.path) for p in prepared)) if prepared else set()


def raw_findings(prepared: list[Prepared], project, rules: set[str]) -> list[Finding]:
    """What the `rules` find in the prepared files' functions, before `settle`."""
    from .checks import run_checks  # here, not above: lowering a file (`prepare`) needs no check

    found = []
    for p in prepared:
        if p.model is not None:
            found += run_checks(p.model, rules, project)
    return found


def settle(found: list[Finding], prepared: list[Prepared], rules_for, min_confidence: str) -> list[Finding]:
    """The surest finding per place, of the confidence asked for, where its
    rule is selected for its file, marked when suppressed there: a finding
    may lie in another file than the one analysed (a helper), so `prepared`
    holds every file whose suppressions can apply."""
    from .checks import best_of

    return found_in_place(best_of(found), {p.path: p.marks for p in prepared}, rules_for,
                          CONFIDENCES.index(min_confidence))


def found_in_place(findings, marks, rules_for, floor: int) -> list[Finding]:
    kept = [f for f in findings if CONFIDENCES.index(f.confidence) >= floor and f.rule in rules_for(f.path)]
    by_file: dict[str, list[Finding]] = {}
    for f in kept:
        by_file.setdefault(f.path, []).append(f)
    for path, group in by_file.items():
        apply_suppressions(marks.get(path, {}), group)
    return kept
