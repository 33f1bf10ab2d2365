"""Lint a set of files, phase by phase.

1. scan: every file is read and its bytes scanned (`Scanner.may_find`); a
   file whose bytes show it cannot matter is *skipped* (never parsed).
2. lower: the files the scan let through are parsed and lowered into
   models, the biggest first so that none is left for last.
3. later rounds (two at most): the models tell what is *wanted* of the other
   files (a function they call that no linted file defines, a function that
   sends that another file may call and then read); the skipped files that
   *offer* it are lowered, and so are the files whose *stubs* (functions kept
   without a body) turn out to be called (lowered *again*).
4. check: the rules run on every model, with the whole project at hand, so
   that calls across files are followed.
5. settle: the surest finding per place, of the confidence asked for,
   where its rule is selected, marked where suppressed.

Phases 1, 2 and 4, and the lowering of phase 3, share their work with
forked workers (`forks.fork_map`, or a process pool where the platform
cannot fork) once the run is big enough; what crosses between processes is
a named record (`Scanned`, `Lowered`, `Checked`).  Phase 3 asks the skipped
files here: their facts, worked out once, rule most of them out."""

from __future__ import annotations

import errno
import os
import stat
import time
from collections import namedtuple
from contextlib import contextmanager
from types import SimpleNamespace

from .config import Settings, selected_rules
from .discover import discover
from .languages import language_of
from .prepared import syntax_errors
from .report import Result

TYPE_CHECKING = False  # typing's own, without importing typing
if TYPE_CHECKING:
    from .config import Resolver
    from .prepared import Prepared
    from .project import Wanted

PARALLEL_THRESHOLD = 64  # below this many files, starting workers costs more than it saves
LATER_ROUNDS = 2

# What a worker sends back for one file.
Scanned = namedtuple("Scanned", "path settled size")  # settled: what read_file answers, or None: to be lowered (size bytes)
Lowered = namedtuple("Lowered", "path prepared problem")  # prepared: None where it could not be lowered
Checked = namedtuple("Checked", "path findings problems")  # findings before `lint.settle`
# What a skipped file offers a later round.
Offer = namedtuple("Offer", "path defined worth called")  # see `Scanner.offers`


def run(paths: list[str], settings: Settings | Resolver, jobs: int | None = None, force_exclude: bool = False,
        cache=None) -> Result:
    """Lint the files under `paths`.  With a `cache.Cache`, an unchanged tree
    (same files and contents, same settings) gives the stored result."""
    return run_planned(plan(paths, settings, force_exclude, cache), settings, jobs)


def plan(paths: list[str], settings: Settings | Resolver, force_exclude: bool = False, cache=None):
    """The files to lint, the paths that cannot be, the cache key of the
    run and its per-file store (None without a cache, or where a file cannot
    be looked at)."""
    missing, files = [], []
    for path, error in discover(paths, settings, force_exclude):
        (missing if error else files).append((path, error) if error else path)
    for path in files:  # every file's configuration read here, where a bad one stops the run, not in a worker
        settings.of(path)
    digest = store = None
    if cache is not None:
        from .cache import file_digests, key

        from .store import Store

        store, signatures = Store(cache, paths, force_exclude), {}
        digests = file_digests(files, settings, store.known(), signatures)
        digest = key(files, settings, (tuple(missing), force_exclude), digests)
        if digests is None:
            store = None
        else:
            store.digests, store.signatures = digests, signatures
    return SimpleNamespace(files=files, missing=missing, cache=cache, digest=digest, store=store)


def run_planned(planned, settings: Settings | Resolver, jobs: int | None = None) -> Result:
    """Lint what `plan` found: the stored result where the cache has it, else
    the last run's where the files changed since cannot matter to the others,
    else a run taking from the per-file store what did not change (see store.py)."""
    if planned.digest is not None:
        stored = planned.cache.load(planned.digest)
        if stored is not None:
            return stored
    store = planned.store
    result = store.replay(settings) if store is not None else None
    if result is None:
        result = _run(planned.files, settings, jobs, store.trace if store is not None else None)
    if store is not None:
        store.keep(result)
    result.problems = sorted(result.problems + planned.missing)
    if planned.digest is not None:
        planned.cache.store(planned.digest, result)
    return result


def _run(files: list[str], settings: Settings | Resolver, jobs: int | None, trace=None) -> Result:
    """The five phases; `trace`: a `store.Trace` to fill."""
    result = Result([])
    jobs = jobs or default_jobs()
    with _fewer_collections():
        prepared, project = lower_all(files, settings, jobs, result, trace)  # phases 1-3
        if not prepared:  # nothing lowered: the checks and the model are never loaded
            return result
        from .lint import settle

        per_file = check_each(prepared, project, settings, jobs, result.problems, trace)  # phase 4
        result.problems.sort()
        files = [prepared[p] for p in sorted(prepared)]
        result.findings = settle([f for p in sorted(prepared) for f in per_file[p]], files, _rules_for(settings),
                                 _confidence_for(settings))  # phase 5
    return result


@contextmanager
def _fewer_collections():
    """The cyclic garbage collector run every 10,000 allocations instead of
    700: a run makes hundreds of thousands of objects that live until it
    ends (syntax trees, models), which the collector walked again and again
    (on Netty and Twisted, half the time it took: 0.49 s -> 0.24 s and
    0.17 s -> 0.07 s of CPU).  Forked workers inherit it."""
    import gc

    before = gc.get_threshold()
    gc.set_threshold(10_000, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def lower_all(files: list[str], settings: Settings | Resolver, jobs: int, result: Result, trace=None,
              first_done=None):
    """Phases 1-3: (path -> Prepared of the files lowered, their Project or
    None); `result` counts the files and takes the problems, sorted; `trace`
    (a `store.Trace`) learns what each phase made of each file, and answers
    what the store knows of it already; `first_done`: called once the first
    round is done (the later rounds are mostly this process's alone)."""
    workers = _Workers(jobs, len(files) >= PARALLEL_THRESHOLD)
    lowered = _Lowered(result, trace)
    try:
        first = _first_round(files, settings, workers) if trace is None else \
            trace.first_round(files, settings, workers)
        if first_done is not None:
            first_done()
        for item in first:
            if item.prepared is not None:
                result.files += 1
            lowered.take(item)
            if trace is not None:
                trace.took(item)
        project = _later_rounds(lowered, settings, workers) if lowered.prepared else None
    finally:
        workers.close()
    result.problems.sort()
    return lowered.prepared, project


class _Lowered:
    """What phases 1-3 learn: the files lowered, the files skipped, and the
    problems met (reported once per file, however often it is lowered)."""

    def __init__(self, result: Result, trace=None):
        self.result, self.trace = result, trace
        self.prepared: dict[str, Prepared] = {}
        self.skipped: list[str] = []

    def take(self, item: Lowered) -> None:
        path, prep, problem = item
        seen = path in self.prepared  # a file lowered again was reported on already
        if problem and not seen:
            self.result.problems.append((path, problem))
        if prep is None:
            return
        if prep.errors and not seen:
            self.result.problems.append((path, syntax_errors(prep.errors)))
        if prep.model is not None:
            self.prepared[path] = prep
        elif not seen:
            self.skipped.append(path)


def _first_round(files: list[str], settings: Settings | Resolver, workers: _Workers) -> list[Lowered]:
    """Phases 1 and 2, for every file in order: scanned (in parallel), then
    the files the scan let through lowered, the biggest first."""
    scanned = workers.map(_scan_many, files, settings)
    to_lower = sorted((s for s in scanned if s.settled is None), key=lambda s: -s.size)
    out = {s.path: Lowered(s.path, *s.settled) for s in scanned if s.settled is not None}
    if to_lower:
        _load_lowering({language_of(s.path) for s in to_lower})  # before the workers are forked: they inherit it
        for item in workers.map(_lower_many, [s.path for s in to_lower], settings, size=1):
            out[item.path] = item
    return [out[path] for path in files]


def _later_rounds(lowered: _Lowered, settings: Settings | Resolver, workers: _Workers):
    """Phase 3: for two more rounds at most, the skipped files that other
    files turn out to need lowered, and the files holding a stub another
    file calls lowered again; the project of every file lowered."""
    prepared = lowered.prepared
    project = project_of(prepared, settings)
    facts: dict[str, tuple] = {}  # skipped file -> its byte facts, for every round (see `LaterLook`)
    for _ in range(LATER_ROUNDS):
        wanted = project.wanted() if lowered.trace is None else lowered.trace.wanted(project)
        if lowered.trace is not None:
            lowered.trace.rounds.append(wanted)
        skipped = lowered.skipped
        if not (wanted.again or skipped and wanted):
            break
        ask = _offers if lowered.trace is None else lowered.trace.offers
        offers = ask(skipped, wanted, facts, workers) if skipped and (wanted.needed or wanted.effects) else []
        if lowered.trace is not None:
            lowered.trace.offered.update(offer.path for offer in offers)
        chosen = sorted(wanted.again) + _choose(offers, wanted, project)
        before = len(prepared)
        _lower_chosen(lowered, chosen, wanted, settings, workers)
        if not chosen or (len(prepared) == before and not wanted.again):
            break
        lowered.skipped = [p for p in skipped if p not in prepared]
        project = project_of(prepared, settings, project)
    return project


def _lower_chosen(lowered: _Lowered, chosen: list[str], wanted: Wanted, settings: Settings | Resolver,
                  workers: _Workers) -> None:
    """The files a later round chose lowered, each with what an earlier
    round made of it (`wanted.again`), the biggest first, so that none is
    left for last; taken in the order chosen."""
    prepared = lowered.prepared
    items = [(p, prepared[p] if p in wanted.again and p in prepared else None) for p in chosen]
    by_size = sorted(items, key=lambda item: -_size(item[0]))
    relower = _relowered if lowered.trace is None else lowered.trace.relowered
    found = {item.path: item for item in relower(by_size, settings, wanted, workers)}
    for path in chosen:
        lowered.take(found[path])


def _relowered(items: list, settings: Settings | Resolver, wanted: Wanted, workers: _Workers) -> list[Lowered]:
    return workers.map(_relower_many, items, settings, wanted, size=1)


def project_of(prepared: dict, settings: Settings | Resolver, earlier=None):
    """The Project of the files lowered (path -> Prepared), with the rules
    `settings` select for each; `earlier`: see `Project`."""
    from .project import Project

    return Project([p.model for p in prepared.values()], earlier, {path: p.choice for path, p in prepared.items()},
                   lambda path: _nodelay_by_design(settings.of(path), path))


def _offers(skipped: list[str], wanted: Wanted, facts: dict[str, tuple], workers: _Workers | None = None) -> list[Offer]:
    """What the skipped files offer to `wanted`, each read again only where
    its facts (kept in `facts` for the next round) show it may offer
    something.  Shared with forked workers, which inherit `facts` (most
    files are ruled out by them, but the first round to ask works out every
    file's: Netty's 3,400 skipped files take 0.2 s); each sends back the
    facts it worked out."""
    from .languages.scan import QUIET, LaterLook

    look = LaterLook(wanted)
    work = (skipped, look, facts)
    found = workers.map(_offer_many, *work, fork_only=True) if workers is not None else _offer_many(work)
    out = []
    for path, offer, known in found:
        if known is not None:
            facts[path] = QUIET if known == QUIET else known  # a worker's is a copy: `LaterLook` knows QUIET by itself
        if offer is not None:
            out.append(Offer(path, *offer))
    return out


def _offer_many(args) -> list[tuple]:
    """(path, its offer or None, the facts worked out for it or None) for each skipped file."""
    from .languages import scanner

    paths, look, facts = args
    out = []
    for path in paths:
        language, before = language_of(path), facts.get(path)
        offer, known = look.offer(scanner(language), language, lambda: _reread(path), before)
        out.append((path, offer, known if known is not before else None))
    return out


def _choose(offers: list[Offer], wanted: Wanted, project) -> list[str]:
    """The skipped files worth lowering: each calls a function of another
    file that sends (as the call would resolve), or defines a needed name
    where a call can resolve to it (the only definition of its language, or
    one in a caller's folder)."""
    count: dict[tuple[str, str], int] = {}
    for offer in offers:
        for name in offer.defined:  # every definition counts, as it makes a call ambiguous
            key = (language_of(offer.path), name)
            count[key] = count.get(key, 0) + 1
    chosen = []
    for path, _, worth, effects in offers:
        lang, folder = language_of(path), os.path.dirname(path)
        if any(project.reaches(path, lang, n) for n in effects) or any(
                count[(lang, n)] + len(project.definers(lang, n)) == 1 or folder in wanted.callers.get(n, ())
                for n in worth):
            chosen.append(path)
    return sorted(chosen)


def check_each(prepared: dict, project, settings: Settings | Resolver, jobs: int, problems: list | None = None,
               trace=None) -> dict:
    """Phase 4: path -> what the checks find analysing that file (before
    `lint.settle`; a finding may lie in another file, a helper's), each file
    within what its lowering left of its time budget; the files whose
    analysis the budget cut go to `problems`.  `trace`: a `store.Trace`,
    which gives what the store knows of them already and learns the rest."""
    from .lint import selected

    order = sorted(prepared)
    rules = selected([prepared[p] for p in order], _rules_for(settings))
    workers = _Workers(jobs, len(order) >= PARALLEL_THRESHOLD // 4)
    from . import checks  # noqa: F401  loaded before the workers are forked: they inherit it
    # The costliest first, so that none is left for last.
    kept = trace.checks_kept(prepared, project, rules, settings) if trace is not None else {}
    by_cost = sorted((p for p in order if p not in kept), key=lambda p: -_check_cost(prepared[p]))
    _SHARED.update(prepared=prepared, project=project, rules=rules, settings=settings)  # forked workers have them
    try:
        checked = {item.path: item for item in workers.map(_check_many, by_cost, size=max(1, len(order) // (jobs * 64)),
                                                           fork_only=True)}
    finally:
        _SHARED.clear()
        workers.close()
    checked.update(kept)
    if trace is not None:
        trace.checked(checked)
    if problems is not None:
        problems += [problem for p in order for problem in checked[p].problems]
    return {p: checked[p].findings for p in order}


# --- each worker's part -----------------------------------------------------


def _scan_many(args) -> list[Scanned]:
    paths, settings = args
    out = []
    for path in paths:
        data, settled = _scanned(path, settings.of(path), None, language_of(path))
        out.append(Scanned(path, settled, 0) if settled is not None else Scanned(path, None, len(data)))
    return out


def _lower_many(args) -> list[Lowered]:
    """Files the byte scan let through: read again (not scanned again) and lowered."""
    paths, settings = args
    return [Lowered(p, *read_file(p, settings, scanned=True)) for p in paths]


def _relower_many(args) -> list[Lowered]:
    """Files lowered for what other files need, each with what an earlier
    round made of it where it was lowered already (`wanted.again`: what that
    model lowered is kept) or None."""
    items, settings, wanted = args
    return [Lowered(p, *read_file(p, settings, wanted=wanted, before=before)) for p, before in items]


_SHARED: dict = {}  # phase 4's models, project and rules, inherited by forked workers


def _check_many(args) -> list[Checked]:
    from .lint import raw_findings

    (paths,) = args
    prepared, project, rules, settings = (_SHARED[k] for k in ("prepared", "project", "rules", "settings"))
    out = []
    for p in paths:
        cut: list = []  # its problem, where the time budget cut its analysis
        out.append(Checked(p, raw_findings([prepared[p]], project, rules, settings.of(p).timeout, cut), cut))
    return out


def _check_cost(prepared: Prepared) -> int:
    """A guess at the time a file's checks take: the lines of its analysed functions."""
    from .languages.scan import n_is_root

    return sum(fn.site.end_line - fn.site.line for fn in prepared.model.functions
               if fn.body and not n_is_root(fn.qualname))


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _reread(path: str) -> bytes | None:
    """A skipped file read again for a later round (it is in the page cache),
    as the first round read it (`_as_text`); None where it cannot be now."""
    data = _read_bytes(path, 0)[0]
    return None if data is None else _as_text(data)[0]


def _load_lowering(languages) -> None:
    """What lowering files of these languages loads."""
    from . import lint  # noqa: F401
    from .languages import frontend

    for language in sorted(languages):
        _ = frontend(language).parser


class _Workers:
    """Work shared by `jobs` processes: forked copies of this one where the
    platform can fork (see forks.py), else a process pool made on first
    need and kept for every round.  `parallel`: the run is big enough to
    share at all."""

    def __init__(self, jobs: int, parallel: bool = True):
        self.jobs, self.pool = jobs, None
        self.parallel = parallel and jobs > 1

    def map(self, work, items: list, *extra, size: int | None = None, fork_only: bool = False) -> list:
        """The outputs of `work` over chunks of `items`, in order; `size`:
        items per chunk (few where each is costly and they are few);
        `fork_only`: the work needs what forked workers inherit."""
        if not self.parallel or len(items) < 2:
            return work((items, *extra))
        from .forks import can_fork, fork_map

        if fork_only and not can_fork():
            return work((items, *extra))
        size = size or max(4, len(items) // (self.jobs * 32))
        if can_fork():
            return fork_map(work, items, extra, self.jobs, size)
        if self.pool is None:
            from concurrent.futures import ProcessPoolExecutor  # only when it pays: its import costs start-up time

            self.pool = ProcessPoolExecutor(max_workers=self.jobs)
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        return [o for batch in self.pool.map(work, [(c, *extra) for c in chunks]) for o in batch]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def default_jobs() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


# --- one file ---------------------------------------------------------------


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


def read_file(path: str, settings: Settings | Resolver, data: bytes | None = None, language: str | None = None,
              wanted: Wanted | None = None, scanned: bool = False, before=None, earlier=None):
    """(Prepared or None, problem or None) for one file, read with its own
    settings (`settings.of(path)`); never raises for bad input.

    A file whose bytes show it cannot matter is not parsed (its Prepared has
    no model), and costs no more than a read and a byte scan (`scanned`: the
    scan already let it through; `earlier`: see `Frontend.lower_choosing`).  When a few functions could not be
    analysed (nested too deeply), or a suppression comment names no rule,
    both the Prepared and a problem saying so are returned."""
    from .noqa import unknown

    language = language or language_of(path)
    settings = settings.of(path)
    data, settled = _scanned(path, settings, data, language, wanted is None and not scanned)
    if data is None:
        return settled
    prepared, problem = _lower(path, data, language, settings, wanted, before, earlier)
    if prepared is not None and wanted is None:  # a later round's file was told of in the first
        problem = "; ".join(filter(None, (problem, unknown(prepared.marks)))) or None
    return prepared, problem


def _scanned(path: str, settings: Settings, data: bytes | None, language: str | None, scan: bool = True):
    """(the file's text, None) when it is to be lowered, else (None, what
    read_file answers): it cannot be read, or (`scan`) its bytes show it
    cannot matter."""
    from .languages import scanner
    from .prepared import SKIPPED

    if language is None:
        return None, (None, "not a Python, Java or C file (by its extension); skipped")
    limit = settings.max_file_size
    if data is None:
        data, problem = _read_bytes(path, limit)
        if data is None:
            return None, (None, problem)
    elif limit and len(data) > limit:
        return None, (None, _too_big(len(data), limit))
    data, problem = _as_text(data)
    if data is None:
        return None, (None, problem)
    if scan and not scanner(language).may_find(data, settings.min_confidence, _nodelay_by_design(settings, path)):
        if b"nagle-lint:" not in data:
            return None, (SKIPPED, None)
        from .noqa import parse, unknown

        # A file with suppressions is lowered where they are judged (NGL100): one the
        # scan would skip has no finding, so each of its suppressions is unused.
        if "NGL100" not in selected_rules(settings, path):
            return None, (SKIPPED, unknown(parse(data)))
    return data, None


def _nodelay_by_design(settings: Settings, path: str) -> bool:
    """Whether a rule runs on the file that finds something in sends on a
    connection a framework makes with TCP_NODELAY on."""
    from .rules import ON_NODELAY_BY_DESIGN

    return bool(selected_rules(settings, path, ON_NODELAY_BY_DESIGN))


def _too_big(size: int, limit: int, more: bool = False) -> str:
    def mb(n):
        return f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n:,} bytes"
    return (f"too big to lint ({'over ' if more else ''}{mb(size)}; the limit is {mb(limit)}, "
            "see max-file-size); skipped")


# path -> bytes read instead of the file at that path (an editor's unsaved
# buffers); forked workers inherit it.
TEXTS: dict[str, bytes] = {}


def _read_bytes(path: str, limit: int):
    """(bytes, None) or (None, problem): the file's text in `TEXTS`, else
    what is on disk.  Reading cannot block or run away:
    the file is opened without waiting (a FIFO or a device is refused once
    open, so nothing can be swapped in after a check), only regular files
    are read, and never more than the size limit."""
    text = TEXTS.get(path)
    if text is not None:
        return (None, _too_big(len(text), limit)) if limit and len(text) > limit else (text, None)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except ValueError:  # a NUL in the name
        return None, "cannot read: not a valid file name; skipped"
    except OSError as e:
        return None, _cannot_open(path, e)
    try:
        return _read_open(fd, limit)
    except OSError as e:
        return None, f"cannot read: {e.strerror or e}; skipped"
    finally:
        os.close(fd)


def _cannot_open(path: str, e: OSError) -> str:
    if e.errno == errno.ELOOP:
        return "symbolic link loop; skipped"
    if e.errno == errno.ENOENT and os.path.islink(path):
        return "broken symbolic link; skipped"
    if e.errno in (errno.EISDIR, errno.EACCES) and os.path.isdir(path):
        return "a folder, not a file; skipped"
    return f"cannot read: {e.strerror or e}; skipped"


def _read_open(fd: int, limit: int):
    """`_read_bytes` of an open file."""
    st = os.fstat(fd)
    if stat.S_ISDIR(st.st_mode):
        return None, "a folder, not a file; skipped"
    if not stat.S_ISREG(st.st_mode):
        return None, "not a regular file (a pipe, socket or device); skipped"
    if limit and st.st_size > limit:
        return None, _too_big(st.st_size, limit)
    data = os.read(fd, st.st_size + 1)
    if len(data) <= st.st_size and st.st_size:  # a short read of a regular file: its end
        return data, None
    # A file that grows while it is read (or tells no size): read on, up to the limit.
    chunks, total = [data], len(data)
    while not (limit and total > limit):
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks), None
        chunks.append(chunk)
        total += len(chunk)
    return None, _too_big(total, limit, more=True)


def _as_text(data: bytes):
    """(bytes as UTF-8 text, None) or (None, problem).  A UTF-8 byte-order
    mark is dropped and UTF-16/32 with a mark is re-encoded as UTF-8, so
    that columns count characters."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # a UTF-8 byte-order mark is not a character of the first line
    elif data.startswith((b"\xff\xfe", b"\xfe\xff", b"\0\0\xfe\xff")):
        codec = "utf-32" if data.startswith((b"\xff\xfe\0\0", b"\0\0\xfe\xff")) else "utf-16"
        try:
            data = data.decode(codec).encode("utf-8", "surrogatepass")
        except UnicodeError:
            return None, f"starts with a {codec.upper()} byte-order mark but is not {codec.upper()} text; skipped"
    if b"\0" in data:
        if data.find(b"\0", 0, 8192) >= 0:  # where git looks too
            return None, "binary file (NUL bytes); skipped"
        data = data.replace(b"\0", b" ")  # a stray NUL further on is read as a space (as C compilers do), not as the end of the file
    return data, None


def _lower(path: str, data: bytes, language: str, settings: Settings, wanted: Wanted | None, before=None,
           earlier=None):
    """Parse and lower, within the file's time budget (parsing, lowering and
    the file's checks share it: what this spends is told in `Prepared.spent`)."""
    from .languages.base import Budget
    from .lint import prepare

    start = time.monotonic()
    budget = Budget(settings.timeout, start + settings.timeout if settings.timeout else None)
    try:
        prepared = prepare(path, data, language, wanted, before, budget, earlier, settings.in_project(path))
        prepared.spent = time.monotonic() - start
    except TimeoutError as e:  # raised by the frontend when the budget is spent
        return None, f"{e}; skipped"
    except RecursionError as e:
        return None, f"{e if str(e) and 'maximum recursion' not in str(e) else 'nested too deeply to analyse'}; skipped"
    except MemoryError:
        return None, "out of memory while analysing it; skipped"
    except Exception as e:  # a bug of ours that this input reveals: the other files are still linted
        why = " ".join(str(e).split())[:200]
        return None, f"internal error while analysing it ({type(e).__name__}: {why}); skipped (please report it)"
    return prepared, "; ".join(budget.notes) or None


def lint_file(path: str, settings: Settings | Resolver, data: bytes | None = None, language: str | None = None):
    """(path, findings, problem or None, parse errors) for one file on its own."""
    from .lint import check
    from .project import Project

    settings = settings.of(path)
    prepared, problem = read_file(path, settings, data, language)
    if prepared is None:
        return path, [], problem, 0
    project = Project([prepared.model] if prepared.model else [],
                      nodelay_by_design=lambda p: _nodelay_by_design(settings, p))
    cut: list = []
    findings = check([prepared], project, _rules_for(settings), _confidence_for(settings), settings.timeout, cut)
    problem = "; ".join([problem] * bool(problem) + [message for _, message in cut]) or None
    return path, findings, problem, prepared.errors


def _rules_for(settings: Settings | Resolver):
    """path -> the rules selected for that file."""
    cache: dict[str, set[str]] = {}

    def rules_for(path: str) -> set[str]:
        if path not in cache:
            cache[path] = selected_rules(settings.of(path), path)
        return cache[path]

    return rules_for


def _confidence_for(settings: Settings | Resolver):
    """path -> the least confidence shown in that file."""
    return lambda path: settings.of(path).min_confidence


