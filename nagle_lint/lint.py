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
    from .languages.base import Budget
    from .languages.edited import Earlier
    from .project import Wanted


def prepare(path: str, data: bytes, language: str | None = None, wanted: Wanted | None = None,
            before: Prepared | None = None, budget: Budget | None = None, earlier: Earlier | None = None,
            in_project: str | None = None) -> Prepared:
    """Lower a file the byte scan let through.  `wanted`: this is a later
    round, the file matters for what other files need; `before`: what an
    earlier round made of it (it is lowered again); `budget`, `earlier`
    (an edited file's last lowering), `in_project`: see `Frontend.lower_choosing`."""
    fe = frontend(language or language_of(path))
    if wanted is None:
        model, choice = fe.lower_choosing(path, data, budget=budget, earlier=earlier, in_project=in_project)
    else:  # a file the byte scan skipped is lowered for what others need of it, not for its own sends
        needed = wanted.needed | wanted.called.get(path, frozenset())
        earlier = (before.model, before.choice) if before is not None else None
        model, choice = fe.lower_choosing(path, data, wanted.effects, needed, own=path in wanted.again, before=earlier,
                                          option_only=wanted.option_only, budget=budget, in_project=in_project)
    return Prepared(path, model, parse_suppressions(data), model.error_count, choice=choice)


def check(prepared: list[Prepared], project, rules_for, confidence_for, timeout: float = 0.0,
          problems: list | None = None) -> list[Finding]:
    """The findings of the prepared files' functions, each kept where its rule
    is selected for its file (`rules_for(path)`) and it is as sure as its
    file asks (`confidence_for(path)`), marked when suppressed; `timeout`,
    `problems`: see `raw_findings`."""
    return settle(raw_findings(prepared, project, selected(prepared, rules_for), timeout, problems), prepared,
                  rules_for, confidence_for)


def selected(prepared: list[Prepared], rules_for) -> set[str]:
    """The rules selected for any of the files."""
    return set().union(*(rules_for(p.path) for p in prepared)) if prepared else set()


def raw_findings(prepared: list[Prepared], project, rules: set[str], timeout: float = 0.0,
                 problems: list | None = None, runs: dict | None = None) -> list[Finding]:
    """What the `rules` find in the prepared files' functions, before `settle`.
    `timeout`: each file's time budget (0: none), what its lowering left of
    it (`Prepared.spent`) for its checks; a file whose analysis it cuts
    keeps the findings of what was analysed, and is named in `problems`.
    `runs`: path -> its earlier analysis' runs (see `flow.analyse`)."""
    import time

    from .checks import checks_within  # here, not above: lowering a file (`prepare`) needs no check

    found = []
    for p in prepared:
        if p.model is not None:
            deadline = time.monotonic() + max(0.0, timeout - p.spent) if timeout else None
            findings, cut = checks_within(p.model, rules, project, deadline, (runs or {}).get(p.path))
            found += findings
            if cut and problems is not None:
                problems.append((p.path, cut_problem(timeout)))
    return found


def cut_problem(timeout: float) -> str:
    return (f"analysis took longer than the time budget ({timeout:g} s a file, see timeout); not fully analysed: "
            "its findings so far are reported, others may be missing")


def settle(found: list[Finding], prepared: list[Prepared], rules_for, confidence_for) -> list[Finding]:
    """The surest finding per place, of the confidence its file asks for
    (`confidence_for(path)`), where its rule is selected for its file,
    marked when suppressed there: a finding
    may lie in another file than the one analysed (a helper), so `prepared`
    holds every file whose suppressions can apply."""
    from .checks import best_of

    return found_in_place(best_of(found), {p.path: p.marks for p in prepared}, rules_for, confidence_for)


def found_in_place(findings, marks, rules_for, confidence_for) -> list[Finding]:
    from .checks import CHECKS, ON_SUPPRESSIONS

    selected = [f for f in findings if f.rule in rules_for(f.path)]
    kept = [f for f in selected if CONFIDENCES.index(f.confidence) >= CONFIDENCES.index(confidence_for(f.path))]
    # The rules judging suppressions see every finding, whatever its confidence: a suppression
    # of a finding hidden at this run's confidence is still in use.
    judged = [f for rule in sorted(ON_SUPPRESSIONS) for f in CHECKS[rule](selected, marks, rules_for)]
    by_file: dict[str, list[Finding]] = {}
    for f in kept:
        by_file.setdefault(f.path, []).append(f)
    for path, group in by_file.items():
        apply_suppressions(marks.get(path, {}), group)
    for rule in ON_SUPPRESSIONS:  # only a comment that names such a rule suppresses its findings
        naming = {path: {n: m for n, m in file_marks.items() if m[0] and rule in m[0]}
                  for path, file_marks in marks.items()}
        for f in judged:
            if f.rule == rule:
                apply_suppressions(naming.get(f.path, {}), [f])
    return sorted(kept + judged, key=Finding.sort_key) if judged else kept
