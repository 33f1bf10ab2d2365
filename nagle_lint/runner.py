"""Lint a set of files: phase one reads and lowers each file (in parallel),
phase two runs the checks with every model at hand, so that calls across
files are followed (in parallel again, the project shared by forking)."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

from .config import Settings, selected_rules
from .discover import discover
from .languages import language_of
from .lint import Prepared, Wanted, check, prepare
from .report import Result

PARALLEL_THRESHOLD = 64  # below this many files, starting workers costs more than it saves


def read_file(path: str, settings: Settings, data: bytes | None = None, language: str | None = None,
              wanted: Wanted = Wanted()):
    """(Prepared or None, problem or None) for one file; never raises for bad input."""
    language = language or language_of(path)
    if language is None:
        return None, "not a Python, Java or C file (by its extension); skipped"
    if data is None:
        try:
            if not os.path.isfile(path):
                return None, "not a regular file; skipped"
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as e:
            return None, f"cannot read: {e.strerror or e}"
    if b"\0" in data[:8192]:
        return None, "binary file (NUL bytes); skipped"
    return prepare(path, data, settings.min_confidence, language, wanted), None


def lint_file(path: str, settings: Settings, data: bytes | None = None, language: str | None = None):
    """(path, findings, problem or None, parse errors) for one file on its own."""
    from .project import Project

    prepared, problem = read_file(path, settings, data, language)
    if prepared is None:
        return path, [], problem, 0
    project = Project([prepared.model] if prepared.model else [])
    return path, check([prepared], project, _rules_for(settings), settings.min_confidence), None, prepared.errors


def _rules_for(settings: Settings):
    cache: dict[str, set[str]] = {}

    def rules_for(path: str) -> set[str]:
        if path not in cache:
            cache[path] = selected_rules(settings, path)
        return cache[path]

    return rules_for


def _read_many(args):
    paths, settings, wanted = args
    return [(p, *read_file(p, settings, wanted=wanted)) for p in paths]


def _read_all(files, settings, jobs, wanted=Wanted()):
    if jobs > 1 and len(files) >= PARALLEL_THRESHOLD:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            work = [(c, settings, wanted) for c in _chunks(files, jobs)]
            return [o for batch in pool.map(_read_many, work) for o in batch]
    return [(p, *read_file(p, settings, wanted=wanted)) for p in files]


_SHARED: dict = {}  # phase two's project and settings, inherited by forked workers


def _check_many(paths):
    prepared, project, settings = _SHARED["prepared"], _SHARED["project"], _SHARED["settings"]
    return check([prepared[p] for p in paths], project, _rules_for(settings), settings.min_confidence)


def _chunks(items, jobs):
    size = max(8, len(items) // (jobs * 8))
    return [items[i:i + size] for i in range(0, len(items), size)]


def run(paths: list[str], settings: Settings, jobs: int | None = None, force_exclude: bool = False,
        cache_dir: str | None = None) -> Result:
    """Lint the files under `paths`.  With `cache_dir`, an unchanged tree
    (same files, sizes and times, same settings) gives the stored result."""
    from . import cache

    missing, files = [], []
    for path, error in discover(paths, settings.exclude, force_exclude,
                                  os.path.dirname(os.path.abspath(settings.source)) if settings.source else None):
        (missing if error else files).append((path, error) if error else path)
    digest = cache.key(files, settings, (tuple(missing), force_exclude)) if cache_dir else None
    if digest is not None:
        stored = cache.load(cache_dir, digest)
        if stored is not None:
            return stored
    result = _run(files, settings, jobs)
    result.problems = sorted(result.problems + missing)
    if digest is not None:
        cache.store(cache_dir, digest, result)
    return result


def _run(files: list[str], settings: Settings, jobs: int | None) -> Result:
    from .checks import best_of
    from .project import Project

    result = Result([])
    jobs = jobs or default_jobs()
    prepared: dict[str, Prepared] = {}
    skipped: list[str] = []
    for path, prep, problem in _read_all(files, settings, jobs):
        if problem:
            result.problems.append((path, problem))
            continue
        result.files += 1
        if prep.errors:
            result.problems.append((path, f"{prep.errors} syntax error{'s' if prep.errors != 1 else ''}; analysed what parsed"))
        if prep.model is not None:
            prepared[path] = prep
        else:
            skipped.append(path)

    # A file the byte scan skipped may still matter: it defines a function the
    # others call, or it reads and calls one that sends. Two more rounds at most.
    project = Project([p.model for p in prepared.values()])
    for _ in range(2):
        wanted = project.wanted() if skipped else Wanted()
        if not wanted:
            break
        again = [(p, prep) for p, prep, _ in _read_all(skipped, settings, jobs, wanted) if prep and prep.model]
        if not again:
            break
        for path, prep in again:
            prepared[path] = prep
            if prep.errors:
                result.problems.append((path, f"{prep.errors} syntax error{'s' if prep.errors != 1 else ''}; analysed what parsed"))
        skipped = [p for p in skipped if p not in prepared]
        project = Project([p.model for p in prepared.values()])
    order = sorted(prepared)
    if jobs > 1 and len(order) >= PARALLEL_THRESHOLD // 4 and _can_fork():
        _SHARED.update(prepared=prepared, project=project, settings=settings)
        try:
            with ProcessPoolExecutor(max_workers=jobs, mp_context=_fork_context()) as pool:
                found = [f for batch in pool.map(_check_many, _chunks(order, jobs)) for f in batch]
        finally:
            _SHARED.clear()
    else:
        found = check([prepared[p] for p in order], project, _rules_for(settings), settings.min_confidence)
    result.findings = best_of(found)
    result.problems.sort()
    return result


def default_jobs() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def _fork_context():
    import multiprocessing

    return multiprocessing.get_context("fork")
