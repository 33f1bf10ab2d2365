"""Lint a set of files, in parallel where there are many, in a stable order."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

from .config import Settings, selected_rules
from .discover import discover
from .languages import language_of
from .lint import lint_source
from .report import Result

PARALLEL_THRESHOLD = 64  # below this, starting workers costs more than it saves


def lint_file(path: str, settings: Settings, data: bytes | None = None, language: str | None = None):
    """(path, findings, problem or None, parse errors) for one file; never raises for bad input."""
    language = language or language_of(path)
    if language is None:
        return path, [], "not a Python, Java or C file (by its extension); skipped", 0
    if data is None:
        try:
            if not os.path.isfile(path):
                return path, [], "not a regular file; skipped", 0
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as e:
            return path, [], f"cannot read: {e.strerror or e}", 0
    if b"\0" in data[:8192]:
        return path, [], "binary file (NUL bytes); skipped", 0
    rules = selected_rules(settings, path)
    findings, errors = lint_source(path, data, rules, settings.min_confidence, language)
    return path, findings, None, errors


def _lint_many(args):
    paths, settings = args
    return [lint_file(p, settings) for p in paths]


def run(paths: list[str], settings: Settings, jobs: int | None = None, force_exclude: bool = False) -> Result:
    result = Result([])
    files = []
    for path, error in discover(paths, settings.exclude, force_exclude):
        if error:
            result.problems.append((path, error))
        else:
            files.append(path)
    jobs = jobs or len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (jobs or os.cpu_count() or 1)
    if jobs > 1 and len(files) >= PARALLEL_THRESHOLD:
        size = max(8, len(files) // (jobs * 8))
        chunks = [files[i:i + size] for i in range(0, len(files), size)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            outcomes = [o for batch in pool.map(_lint_many, [(c, settings) for c in chunks]) for o in batch]
    else:
        outcomes = [lint_file(p, settings) for p in files]
    return collect(result, outcomes)


def collect(result: Result, outcomes) -> Result:
    for path, findings, problem, errors in outcomes:
        if problem:
            result.problems.append((path, problem))
            continue
        result.files += 1
        if errors:
            result.problems.append((path, f"{errors} syntax error{'s' if errors != 1 else ''}; analysed what parsed"))
        result.findings.extend(findings)
    result.findings.sort(key=lambda f: f.sort_key())
    result.problems.sort()
    return result
