"""One file's way through: bytes -> frontend -> model; models -> checks ->
findings, filtered by confidence, rules and suppressions."""

from __future__ import annotations

from dataclasses import dataclass, field

from .checks import best_of, run_checks
from .findings import Finding
from .languages import frontend, language_of
from .languages.base import call_sites
from .model import FileModel
from .site import CONFIDENCES
from .noqa import apply_suppressions, parse as parse_suppressions


@dataclass
class Prepared:
    """What phase one learns of a file: its model (None when the bytes show it
    cannot matter), its suppression comments, its syntax errors."""

    path: str
    model: FileModel | None
    marks: dict
    errors: int = 0


@dataclass(frozen=True)
class Wanted:
    """What makes a file the byte scan skipped matter after all: it names a
    function other files call but none defines (`needed`: it may define it),
    or it calls a function that touches a connection (`effects`) and shows
    socket code of its own (a read, a socket made or accepted)."""

    needed: frozenset = frozenset()
    effects: frozenset = frozenset()
    # Files already lowered that hold a stub another file calls: lowered again.
    again: frozenset = frozenset()
    # needed name -> the folders of its callers (a name many files define
    # resolves only to the definition in the caller's folder)
    callers: dict = field(default_factory=dict, compare=False)

    def __bool__(self):
        return bool(self.needed or self.effects or self.again)


def prepare(path: str, data: bytes, min_confidence: str = "medium", language: str | None = None,
            wanted: Wanted | None = None) -> Prepared:
    """Lower a file, unless its bytes show it cannot matter.  `wanted`: this
    is a later round, the file matters for what other files need."""
    language = language or language_of(path)
    fe = frontend(language)
    if wanted is None and not fe.may_find(data, min_confidence):
        return Prepared(path, None, {})
    if wanted is None:
        model = fe.lower(path, data)
    else:  # a file the byte scan skipped is lowered for what others need of it, not for its own sends
        model = fe.lower(path, data, wanted.effects, wanted.needed, own=path in wanted.again)
    return Prepared(path, model, parse_suppressions(data), model.error_count)


def names_in(path: str, data: bytes, language: str | None = None) -> frozenset[str]:
    """The names a file calls or defines, as a later round asks of a file the
    byte scan skipped (worked out once, asked in every round)."""
    fe = frontend(language or language_of(path))
    return frozenset({name for _, name in call_sites(data)} | fe.declared(data))


def wanted_in(path: str, data: bytes, wanted: "Wanted", names: frozenset,
              language: str | None = None) -> tuple[set[str], set[str]]:
    """What a file the byte scan skipped offers a later round: the needed
    names it defines, and the functions that send it calls (when it shows
    socket code of its own); `names`: see `names_in`."""
    fe = frontend(language or language_of(path))
    defined = fe.defines(data, names & wanted.needed)
    effects = names & wanted.effects
    return defined, effects if effects and fe.talks(data) else set()


def check(prepared: list[Prepared], project, rules_for, min_confidence: str) -> list[Finding]:
    """The findings of the prepared files' functions, each kept where its rule
    is selected for its file (`rules_for(path)`), marked when suppressed."""
    every = set().union(*(rules_for(p.path) for p in prepared)) if prepared else set()
    floor = CONFIDENCES.index(min_confidence)
    found = []
    for p in prepared:
        if p.model is not None:
            found += run_checks(p.model, every, project)
    return found_in_place(best_of(found), {p.path: p.marks for p in prepared}, rules_for, floor)


def found_in_place(findings, marks, rules_for, floor: int) -> list[Finding]:
    kept = [f for f in findings if CONFIDENCES.index(f.confidence) >= floor and f.rule in rules_for(f.path)]
    by_file: dict[str, list[Finding]] = {}
    for f in kept:
        by_file.setdefault(f.path, []).append(f)
    for path, group in by_file.items():
        apply_suppressions(marks.get(path, {}), group)
    return kept
