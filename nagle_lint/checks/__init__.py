"""The rules.  Adding one: its module here, its document in rules/, its fixtures."""

from __future__ import annotations

import copy

from ..findings import Finding
from ..model import FileModel
from ..site import CONFIDENCES
from . import (ngl001_split_write, ngl002_nodelay, ngl003_small_writes, ngl004_cork, ngl005_stop_and_wait,
               ngl006_packets, ngl100_unused_suppression)
from .flow import analyse

CHECKS = {
    "NGL001": ngl001_split_write.check,
    "NGL002": ngl002_nodelay.check,
    "NGL003": ngl003_small_writes.check,
    "NGL004": ngl004_cork.check,
    "NGL005": ngl005_stop_and_wait.check,
    "NGL006": ngl006_packets.check,
    "NGL100": ngl100_unused_suppression.check,
}
# Rules that judge a file's suppression comments once its other findings are
# known (lint.settle calls them), not its model.
ON_SUPPRESSIONS = {"NGL100"}
# Rules whose findings in a test's or a benchmark's source are said with low
# confidence: such code often splits or paces its writes on purpose (a fake
# server, a parser fed piece by piece), and its stalls cost a test run, not a
# service. (NGL002 judges such sources itself.)
LOW_IN_TESTS = {"NGL001", "NGL003", "NGL004", "NGL005", "NGL006"}
MESSAGE_IN_TEST = " (in a test or benchmark source, which does not run in production)"


def checks_within(model: FileModel, rules: set[str], project=None, deadline: float | None = None, runs=None):
    """(the findings of the rules in `rules` for the functions of one file,
    whether the analysis was cut at `deadline` (time.monotonic()) before its
    end: the findings are those of what it followed until then).  With a
    `project`, calls are followed into its other files, and a finding may
    point into one of them (a helper that splits what its caller reads).
    `runs`: see `flow.analyse`."""
    wanted = [r for r in CHECKS if r in rules and r not in ON_SUPPRESSIONS]
    if not wanted:
        return [], False
    analysis = analyse(model, project, deadline, runs)
    found = (f for rule in wanted for f in CHECKS[rule](model, analysis))
    return best_of(map(_in_test, found) if model.test_source else found), analysis.cut


def _in_test(f: Finding) -> Finding:
    """A finding of an analysis of a test's source (see `LOW_IN_TESTS`): a
    copy, so that no finding an analysis may hold on to is changed."""
    if f.rule not in LOW_IN_TESTS or f.confidence == "low":
        return f
    f = copy.copy(f)
    f.confidence, f.message = "low", f.message + MESSAGE_IN_TEST
    return f


def best_of(findings) -> list[Finding]:
    """One finding per rule and place: the surest, and of those as sure, the one whose steps
    come first (not the one met first: the analysis' sets hold its records in an order that
    changes from run to run). Sorted."""
    kept: dict[tuple, Finding] = {}
    for f in findings:
        key = (f.rule, f.path, f.site)
        old = kept.get(key)
        if old is None or _rank(f) > _rank(old) or _rank(f) == _rank(old) and _steps(f) < _steps(old):
            kept[key] = f
    return sorted(kept.values(), key=Finding.sort_key)


def _rank(f: Finding):
    # Surer first: a band-aid of low confidence must not hide a sure note on the same line
    # (the confidence asked would then show neither).
    return (CONFIDENCES.index(f.confidence), f.level == "warning", f.message)


def _steps(f: Finding) -> list[tuple]:
    return [(s.site, s.label, s.path or "") for s in f.related + f.flow]
