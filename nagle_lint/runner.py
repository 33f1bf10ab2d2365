"""Lint a set of files: phase one reads and lowers each file (in parallel),
phase two runs the checks with every model at hand, so that calls across
files are followed (in parallel again, the project shared by forking)."""

from __future__ import annotations

import errno
import os
import stat
import time
from types import SimpleNamespace

from .config import Settings, selected_rules
from .discover import discover
from .languages import language_of
from .report import Result

TYPE_CHECKING = False  # typing's own, without importing typing
if TYPE_CHECKING:
    from .prepared import Prepared
    from .project import Wanted

PARALLEL_THRESHOLD = 64  # below this many files, starting workers costs more than it saves


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


def read_file(path: str, settings: Settings, data: bytes | None = None, language: str | None = None,
              wanted: Wanted | None = None, scanned: bool = False, before=None):
    """(Prepared or None, problem or None) for one file; never raises for bad input.

    A file whose bytes show it cannot matter is not parsed (its Prepared has
    no model), and costs no more than a read and a byte scan (`scanned`: the
    scan already let it through).  When a few functions could not be
    analysed (nested too deeply), both the Prepared and a problem naming
    them are returned."""
    language = language or language_of(path)
    data, settled = _scanned(path, settings, data, language, wanted is None and not scanned)
    return settled if data is None else _lower(path, data, language, settings, wanted, before)


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
    if scan and not scanner(language).may_find(data, settings.min_confidence):
        return None, (SKIPPED, None)
    return data, None


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
        if e.errno == errno.ELOOP:
            return None, "symbolic link loop; skipped"
        if e.errno == errno.ENOENT and os.path.islink(path):
            return None, "broken symbolic link; skipped"
        if e.errno in (errno.EISDIR, errno.EACCES) and os.path.isdir(path):
            return None, "a folder, not a file; skipped"
        return None, f"cannot read: {e.strerror or e}; skipped"
    try:
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
        chunks, total = [data], len(data)
        # A file that grows while it is read (or tells no size): read on, up to the limit.
        while True:
            if limit and total > limit:
                return None, _too_big(total, limit, more=True)
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks), None
            chunks.append(chunk)
            total += len(chunk)
    except OSError as e:
        return None, f"cannot read: {e.strerror or e}; skipped"
    finally:
        os.close(fd)


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


def _lower(path: str, data: bytes, language: str, settings: Settings, wanted: Wanted | None, before=None):
    """Parse and lower, within the file's time budget (parsing, lowering and
    the file's checks share it: what this spends is told in `Prepared.spent`)."""
    from .languages import frontend
    from .lint import prepare

    fe = frontend(language)
    budget = settings.timeout
    start = time.monotonic()
    fe.limits = SimpleNamespace(timeout=budget, deadline=start + budget if budget else None, notes=[])
    try:
        prepared = prepare(path, data, language, wanted, before)
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
    finally:
        notes, fe.limits = fe.limits.notes, None
    return prepared, "; ".join(notes) or None


def lint_file(path: str, settings: Settings, data: bytes | None = None, language: str | None = None):
    """(path, findings, problem or None, parse errors) for one file on its own."""
    from .lint import check
    from .project import Project

    prepared, problem = read_file(path, settings, data, language)
    if prepared is None:
        return path, [], problem, 0
    project = Project([prepared.model] if prepared.model else [])
    cut: list = []
    findings = check([prepared], project, _rules_for(settings), settings.min_confidence, settings.timeout, cut)
    problem = "; ".join([problem] * bool(problem) + [message for _, message in cut]) or None
    return path, findings, problem, prepared.errors


def _rules_for(settings: Settings):
    cache: dict[str, set[str]] = {}

    def rules_for(path: str) -> set[str]:
        if path not in cache:
            cache[path] = selected_rules(settings, path)
        return cache[path]

    return rules_for


def _read_many(args):
    """Files lowered for what other files need, each with its model from an
    earlier round where it was lowered already (`wanted.again`: what that
    model lowered is kept) or None; each with the spans worked out for it
    (see `SPANS`)."""
    from .languages.scan import SPANS

    items, settings, wanted = args
    return [(p, *read_file(p, settings, wanted=wanted, before=before), SPANS.handed()) for p, before in items]


def _lower_many(args):
    """Files the byte scan let through: read again (not scanned again) and
    lowered; each with the spans worked out for it (see `SPANS`)."""
    from .languages.scan import SPANS

    paths, settings = args
    return [(p, *read_file(p, settings, scanned=True), SPANS.handed()) for p in paths]


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


class _Skipped:
    """Skipped file -> what a later round asks of it (see `Scanner.facts`),
    found once and kept here for the next round (workers send what they
    found back, and the workers of the next round, forked from here, have
    it); bounded (names in all), as memory is.  A file whose facts were not
    worked out, as it could offer nothing, is kept with what it was looked
    at for (`ruled_out`): the next round looks only for the names new to it,
    and where it talks, with the names it calls, where they were found (a
    new function that sends is looked for among those, without a read).
    What a file with facts offered is kept with what it was asked
    (`offered`): asked the same again, it offers the same, without a read."""

    BUDGET = 200_000

    def __init__(self):
        self.by_path: dict[str, tuple] = {}
        self.kept = 0
        # path -> (the Wanted it offered nothing to, whether it talks, the keys of the names it calls or None)
        self.ruled_out: dict[str, tuple] = {}
        # path -> (what it was asked (see `_FirstLook.asked`), its offer or None)
        self.offered: dict[str, tuple] = {}

    def keep(self, path: str, facts: tuple) -> bool:
        """Whether the facts are kept (a worker sends back only those)."""
        if path not in self.by_path and self.kept + len(facts[0]) <= self.BUDGET:
            self.by_path[path] = facts
            self.kept += len(facts[0])
            return True
        return False

    def rule_out(self, path: str, wanted: Wanted, talks: bool, called: frozenset | None) -> None:
        """The file offered nothing to `wanted`; `called`: the names it
        calls where found now (those found earlier are kept)."""
        earlier = self.ruled_out.get(path)
        if called is None and earlier is not None:
            called = earlier[2]
        elif called is not None and (earlier is None or earlier[2] is None):
            if self.kept + len(called) > self.BUDGET:
                called = None
            else:
                self.kept += len(called)
        self.ruled_out[path] = (wanted, talks, called)

    def clear(self) -> None:
        self.by_path.clear()
        self.ruled_out.clear()
        self.offered.clear()
        self.kept = 0


_SKIPPED = _Skipped()
FEW_NAMES = 32  # needed names looked for in a file one by one (or in one pattern), before working out its facts (see _FirstLook)
_READ = object()  # what earlier rounds kept does not settle the file: it is read


def _from_memory(path: str, look: _FirstLook):
    """What `_scan_many` answers for a file from what earlier rounds kept of
    it, without a read: its answer, None (nothing to say), or _READ."""
    facts = _SKIPPED.by_path.get(path)
    if facts is None:
        ruled_out = _SKIPPED.ruled_out.get(path)
        if ruled_out is None:
            return _READ
        new_needed, new_effects = look.new_names(ruled_out)
        called = ruled_out[2]
        if new_needed or new_effects and (called is None or called & look.keys(new_effects)):
            return _READ
        return path, None, None, {}, (ruled_out[1], None), None  # nothing new to it
    asked = look.asked(facts)
    if asked is None:  # it offers nothing
        return None
    earlier = _SKIPPED.offered.get(path)
    if earlier is None or earlier[0] != asked:
        return _READ
    return None if earlier[1] is None else (path, None, earlier[1], {}, None, None)


def _scan_many(args):
    """(path, its facts when they were not known, what it offers or None,
    the spans worked out for it, where it was ruled out without its facts
    (whether it talks, the keys of the names it calls where found now)
    else None, what it was asked for its offer (see `_FirstLook.asked`)
    where it was) of each skipped file, for a later round (see `_learn`)."""
    from .languages import scanner
    from .languages.scan import SPANS

    paths, wanted = args
    look = _FirstLook(wanted)
    out = []
    for p in paths:
        answer = _from_memory(p, look)
        if answer is not _READ:
            if answer is not None:
                out.append(answer)
            continue
        facts, data, found = _SKIPPED.by_path.get(p), None, None
        language = language_of(p)
        scan = scanner(language)
        if facts is None:
            ruled_out = _SKIPPED.ruled_out.get(p)
            new_needed, new_effects = look.new_names(ruled_out)
            talks, called = ruled_out[1:] if ruled_out is not None else (None, None)
            data = _reread(p)
            if data is None:
                continue
            known = called is not None
            ruled, talks, called = look.rules_out(scan, language, data, new_needed, new_effects, talks, called)
            if ruled:  # the names it calls are sent back once
                out.append((p, None, None, SPANS.handed(), (talks, None if known else called), None))
                continue
            facts = scan.facts(data, talks, called)
            found = facts if _SKIPPED.keep(p, facts) else None
        offer, asked = None, look.asked(facts)
        if asked is not None:  # else it offers nothing: not read again
            data = data if data is not None else _reread(p) or b""
            defined, worth, called = scan.offers(data, wanted.needed, wanted.effects, facts, wanted.option_only)
            if defined or called:
                offer = (p, defined, worth, called)
        spans = SPANS.handed()
        if found is not None or asked is not None or spans:
            out.append((p, found, offer, spans, None, asked))
    return out


def _scan_later(skipped: list[str], wanted: Wanted, workers: _Workers) -> list:
    """`_scan_many` over the skipped files: the ones that what earlier rounds
    kept settles are answered here (see `_from_memory`), the others read by
    the workers, or here alone where they are few (a fork costs more than
    a few reads)."""
    look = _FirstLook(wanted)
    here, todo = [], []
    for p in skipped:
        answer = _from_memory(p, look)
        if answer is _READ:
            todo.append(p)
        elif answer is not None:
            here.append(answer)
    if len(todo) < PARALLEL_THRESHOLD:
        return here + _scan_many((todo, wanted))
    return here + workers.map(_scan_many, todo, wanted)


def _learn(scanned, wanted: Wanted) -> list:
    """What `_scan_many` found kept for the next round; the offers made."""
    from .languages.scan import SPANS

    offers = []
    for path, facts, offer, spans, ruled_out, asked in scanned:
        SPANS.learn(spans)
        if facts is not None:
            _SKIPPED.keep(path, facts)
        elif ruled_out is not None:
            _SKIPPED.rule_out(path, wanted, *ruled_out)
        if asked is not None and path in _SKIPPED.by_path:
            _SKIPPED.offered[path] = (asked, offer)
        if offer is not None:
            offers.append(offer)
    return offers


class _FirstLook:
    """A file offers something to a later round only where it may define a
    needed name, or has socket code of its own and calls a function that
    sends.  Where the needed names are few, each is looked for before the
    file's facts are worked out (most files are ruled out so, faster), and
    a file ruled out so in an earlier round is looked at for the names new
    since."""

    def __init__(self, wanted: Wanted):
        self.wanted = wanted
        self._defines: dict = {}  # (language, names) -> whether a file may define one (see `Scanner.may_define`)
        self._since: dict = {}  # id of a Wanted files were ruled out for -> (needed, effects) new since
        self._keys: dict = {}  # names -> their keys (see `scan.name_key`)

    def keys(self, names: frozenset) -> frozenset:
        """The keys of `names` (see `scan.name_key`), as facts hold names."""
        if names not in self._keys:
            from .languages.scan import keys_of

            self._keys[names] = keys_of(names)
        return self._keys[names]

    def asked(self, facts: tuple):
        """What a file with these facts (see `Scanner.facts`) is asked for
        its offer: the needed names it may define, the effects it calls and
        those of them that only set an option (`Scanner.offers` answers the
        same to the same); None where it offers nothing."""
        names, definable, talks = facts
        needed = definable & self.keys(self.wanted.needed)
        effects = names & self.keys(self.wanted.effects)  # asked of a file that does not talk too: its worth rests on them
        if not (needed or effects and talks is not False):
            return None
        return needed, effects, effects & self.keys(self.wanted.option_only)

    def new_names(self, ruled_out) -> tuple[frozenset, frozenset]:
        """(needed, effects) to look for in a file, ruled out earlier
        (`ruled_out`: see `_Skipped.ruled_out`) or not (None)."""
        if ruled_out is None:
            return self.wanted.needed, self.wanted.effects
        before, talks, _ = ruled_out
        if id(before) not in self._since:
            self._since[id(before)] = self.wanted.needed - before.needed, self.wanted.effects - before.effects
        needed, effects = self._since[id(before)]
        return needed, effects if talks else frozenset()  # a call counts only in a file that talks

    def rules_out(self, scan, language: str, data: bytes, needed: frozenset, effects: frozenset, talks,
                  called: frozenset | None = None):
        """(whether the file is ruled out, whether it talks: None where not
        worked out, the keys of the names it calls (see `scan.name_key`):
        None where not worked out); `talks`, `called`: what an earlier round
        found.  The names a file calls are found in one pass (faster than a
        look for each of a few names)."""
        from .languages.scan import called_keys, names_of

        if len(needed) > FEW_NAMES:
            return False, talks, called
        if (language, needed) not in self._defines:
            self._defines[language, needed] = scan.may_define(needed)
        if self._defines[language, needed](data):
            return False, talks, called
        if talks is None:
            talks = scan.talks(data)
        if not talks:
            return True, False, None
        called = called_keys(data) if called is None else called
        return not scan.followed(data, names_of(called & self.keys(effects))), True, called


class _Workers:
    """Work shared by `jobs` processes: forked copies of this one where the
    platform can fork (see forks.py), else a process pool made on first
    need and kept for every round.  `parallel`: the run is big enough to
    share at all (PARALLEL_THRESHOLD files)."""

    def __init__(self, jobs: int, parallel: bool = True):
        self.jobs, self.pool = jobs, None
        self.parallel = parallel and jobs > 1

    def map(self, work, items: list, *extra, size: int | None = None) -> list:
        """The outputs of `work` over chunks of `items`, in order; `size`:
        items per chunk (few where each is costly and they are few)."""
        if not self.parallel or len(items) < 2:
            return work((items, *extra))
        size = size or max(4, len(items) // (self.jobs * 32))
        from .forks import can_fork, fork_map

        if can_fork():
            return fork_map(work, items, extra, self.jobs, size)
        if self.pool is None:
            from concurrent.futures import ProcessPoolExecutor  # only when it pays: its import costs start-up time

            self.pool = ProcessPoolExecutor(max_workers=self.jobs)
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        return [o for batch in self.pool.map(work, [(c, *extra) for c in chunks]) for o in batch]

    def stream(self, work, items: list, *extra):
        """A forks.Stream over `items`, or None where this platform cannot fork."""
        from .forks import Stream, can_fork

        return Stream(work, items, extra, self.jobs) if can_fork() else None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


_SHARED: dict = {}  # phase two's models, project and rules, inherited by forked workers


def _check_many(args):
    """(path, (its findings before `lint.settle`, its problems)) for each file."""
    (paths,) = args
    prepared, project, rules, timeout = (_SHARED[k] for k in ("prepared", "project", "rules", "timeout"))
    return [(p, _check_one(prepared[p], project, rules, timeout)) for p in paths]


def _check_one(prepared: Prepared, project, rules: set[str], timeout: float):
    """(the file's findings before `lint.settle`, its problems: its analysis was cut)."""
    from .lint import raw_findings

    problems: list = []
    return raw_findings([prepared], project, rules, timeout, problems), problems


def _check_cost(prepared: Prepared) -> int:
    """A guess at the time a file's checks take: the lines of its analysed functions."""
    from .languages.scan import n_is_root

    return sum(fn.site.end_line - fn.site.line for fn in prepared.model.functions
               if fn.body and not n_is_root(fn.qualname))


def run(paths: list[str], settings: Settings, jobs: int | None = None, force_exclude: bool = False,
        cache=None) -> Result:
    """Lint the files under `paths`.  With a `cache.Cache`, an unchanged tree
    (same files and contents, same settings) gives the stored result."""
    return run_planned(plan(paths, settings, force_exclude, cache), settings, jobs)


def plan(paths: list[str], settings: Settings, force_exclude: bool = False, cache=None):
    """The files to lint, the paths that cannot be, and the cache key of the
    run (None without a cache, or where a file cannot be looked at)."""
    missing, files = [], []
    for path, error in discover(paths, settings, force_exclude):
        (missing if error else files).append((path, error) if error else path)
    digest = None
    if cache is not None:
        from .cache import key

        digest = key(files, settings, (tuple(missing), force_exclude))
    return SimpleNamespace(files=files, missing=missing, cache=cache, digest=digest)


def run_planned(planned, settings: Settings, jobs: int | None = None) -> Result:
    """Lint what `plan` found: the stored result where the cache has it."""
    if planned.digest is not None:
        stored = planned.cache.load(planned.digest)
        if stored is not None:
            return stored
    result = _run(planned.files, settings, jobs)
    result.problems = sorted(result.problems + planned.missing)
    if planned.digest is not None:
        planned.cache.store(planned.digest, result)
    return result


def _run(files: list[str], settings: Settings, jobs: int | None) -> Result:
    result = Result([])
    jobs = jobs or default_jobs()
    prepared, project = lower_all(files, settings, jobs, result)
    if not prepared:  # nothing lowered: the checks and the model are never loaded
        return result
    from .lint import settle

    per_file = check_each(prepared, project, settings, jobs, result.problems)
    result.problems.sort()
    files = [prepared[p] for p in sorted(prepared)]
    result.findings = settle([f for p in sorted(prepared) for f in per_file[p]], files, _rules_for(settings),
                             settings.min_confidence)
    return result


def lower_all(files: list[str], settings: Settings, jobs: int, result: Result):
    """Phase one (see `_prepare_all`) with its workers: (path -> Prepared of
    the files lowered, their Project or None); `result` counts the files and
    takes the problems, sorted."""
    workers = _Workers(jobs, len(files) >= PARALLEL_THRESHOLD)
    from .languages.scan import SPANS

    try:
        prepared, project = _prepare_all(files, settings, workers, result)
    finally:
        workers.close()
        _SKIPPED.clear()
        SPANS.clear()
    result.problems.sort()
    return prepared, project


def check_each(prepared: dict, project, settings: Settings, jobs: int, problems: list | None = None) -> dict:
    """Phase two: path -> what the checks find analysing that file (before
    `lint.settle`; a finding may lie in another file, a helper's), each file
    within what its lowering left of its time budget; the files whose
    analysis the budget cut go to `problems`."""
    from .lint import selected

    order = sorted(prepared)
    rules = selected([prepared[p] for p in order], _rules_for(settings))
    forks = None  # loaded only where the checks are shared
    if jobs > 1 and len(order) >= PARALLEL_THRESHOLD // 4:
        from . import forks
    if forks is not None and forks.can_fork():
        _load_checks()
        # The costliest first, so that none is left for last.
        by_cost = sorted(order, key=lambda p: -_check_cost(prepared[p]))
        _SHARED.update(prepared=prepared, project=project, rules=rules, timeout=settings.timeout)  # the forked workers have them
        try:
            checked = dict(forks.fork_map(_check_many, by_cost, (), jobs, max(1, len(order) // (jobs * 64))))
        finally:
            _SHARED.clear()
    else:
        checked = {p: _check_one(prepared[p], project, rules, settings.timeout) for p in order}
    if problems is not None:
        problems += [problem for p in order for problem in checked[p][1]]
    return {p: checked[p][0] for p in order}


def _prepare_all(files: list[str], settings: Settings, workers: _Workers, result: Result):
    """Phase one: every file read, the ones that may matter lowered; then, for
    two more rounds at most, the skipped files that other files turn out to
    need (they define a function those call, or call one that sends)."""
    from .languages.scan import SPANS

    prepared: dict[str, Prepared] = {}
    skipped: list[str] = []

    def take(path, prep, problem):
        seen = path in prepared  # a file lowered again was reported on already
        if problem and not seen:
            result.problems.append((path, problem))
        if prep is None:
            return
        if prep.errors and not seen:
            result.problems.append((path, f"{prep.errors} syntax error{'s' if prep.errors != 1 else ''}; analysed what parsed"))
        if prep.model is not None:
            prepared[path] = prep
        elif not seen:
            skipped.append(path)

    for path, prep, problem in _first_round(files, settings, workers):
        if prep is not None:
            result.files += 1
        take(path, prep, problem)
    if not prepared:  # no file can matter: nothing else is loaded
        return prepared, None
    from .project import Project

    project = Project([p.model for p in prepared.values()])
    for _ in range(2):
        wanted = project.wanted()
        if not (wanted.again or skipped and wanted):
            break
        offers = _learn(_scan_later(skipped, wanted, workers) if skipped and (wanted.needed or wanted.effects) else (),
                        wanted)
        chosen = sorted(wanted.again) + _choose(offers, wanted, project)
        before = len(prepared)
        items = [(p, prepared[p].model if p in wanted.again and p in prepared else None) for p in chosen]
        # The biggest first, so that no big file is left for last; taken in the order chosen.
        by_size = sorted(range(len(items)), key=lambda i: -_size(items[i][0]))
        lowered = dict(zip(by_size, workers.map(_read_many, [items[i] for i in by_size], settings, wanted, size=1)))
        lowered = [lowered[i] for i in range(len(items))]
        for path, prep, problem, spans in lowered:
            SPANS.learn(spans)
            take(path, prep, problem)
        if not lowered or (len(prepared) == before and not wanted.again):
            break
        skipped = [p for p in skipped if p not in prepared]
        project = Project([p.model for p in prepared.values()], project)
    return prepared, project


WORTH_A_POOL = 0.1  # seconds of scanning left: sharing it with workers saves more than starting them costs


def _first_round(files: list[str], settings: Settings, workers: _Workers) -> list[tuple]:
    """(path, Prepared or None, problem) of every file, in order.

    This process scans the files from the front; the files it lets through
    are lowered by workers meanwhile (forked at the first such file).  When
    the scanning left would take long enough to be worth sharing, the
    workers scan the rest with it.  Then the files that scan let through are
    lowered, biggest first, so that no big file is left for last.  A tree
    with no socket code, or a small one, is scanned here alone."""
    from .languages.scan import SPANS

    out: list = []
    front, started = 0, None
    stream = None  # made at the first file to lower (False: this platform cannot fork)
    try:
        while front < len(files):
            if workers.parallel and front % 16 == 0 and front:
                if stream:
                    stream.hand_over()
                if started is None:  # the rate is measured from here: the first files load the scanners
                    started = time.monotonic(), front
                elif front - started[1] >= 32:
                    rate = (time.monotonic() - started[0]) / (front - started[1])
                    if (len(files) - front) * rate > WORTH_A_POOL:
                        break
            out.append(_scan_one(files[front], settings))
            if out[-1][1] is None and workers.parallel and stream is not False:
                first = stream is None
                if first:
                    stream = workers.stream(_lower_many, files, settings) or False
                if stream:
                    stream.put(front, out[-1][2])  # the first forks the workers
                    if first:  # loaded while the workers start lowering, not before
                        _load_lowering({language_of(files[front])})
                        _load_checks()  # the workers that lower never check
            front += 1
        if front < len(files):
            out += workers.map(_scan_many_first, files[front:], settings)
    except BaseException:
        if stream:
            stream.close()
        raise
    triples = [None if settled is None else (path, *settled) for path, settled, _ in out]
    streamed = front if stream else 0  # the files before were put in the stream as they were found
    to_lower = sorted((-size, i) for i, (_, settled, size) in enumerate(out) if settled is None and i >= streamed)
    if stream:
        for size, i in to_lower:
            stream.put(i, -size)
        lowered = [(i, item) for i, (item,) in stream.results().items()]
    elif to_lower:
        _load_lowering({language_of(out[i][0]) for _, i in to_lower})
        lowered = zip((i for _, i in to_lower), workers.map(_lower_many, [out[i][0] for _, i in to_lower], settings, size=1))
    else:
        lowered = ()
    for i, (path, prep, problem, spans) in lowered:
        SPANS.learn(spans)
        triples[i] = (path, prep, problem)
    return triples


def _load_lowering(languages) -> None:
    """What lowering files of these languages loads, loaded here: before the
    workers of a round are forked (they have it then, instead of each loading
    it), or, for the first round's, while they start (the first loads what it
    needs as this process scans on, instead of the second core waiting)."""
    from importlib import import_module

    from .languages import frontend

    import_module(".lint", __package__)
    for language in sorted(languages):
        _ = frontend(language).parser


def _load_checks() -> None:
    """The checks, loaded here before the workers that run them are forked."""
    from importlib import import_module

    import_module(".checks", __package__)


def _scan_one(path: str, settings: Settings):
    """(path, what read_file answers, 0) when the byte scan settles the
    file, else (path, None, its size): it is to be lowered."""
    data, settled = _scanned(path, settings, None, language_of(path))
    return (path, settled, 0) if settled is not None else (path, None, len(data))


def _scan_many_first(args):
    paths, settings = args
    return [_scan_one(p, settings) for p in paths]


def _choose(offers, wanted, project) -> list[str]:
    """The skipped files worth lowering: each calls a function of another
    file that sends (as the call would resolve), or defines a needed name
    where a call can resolve to it (the only definition of its language, or
    one in a caller's folder)."""
    count: dict[tuple[str, str], int] = {}
    for path, defined, _, _ in offers:
        for name in defined:  # every definition counts, as it makes a call ambiguous
            key = (language_of(path), name)
            count[key] = count.get(key, 0) + 1
    chosen = []
    for path, _, worth, effects in offers:
        lang, folder = language_of(path), os.path.dirname(path)
        if any(project.reaches(path, lang, n) for n in effects) or any(count[(lang, n)] + len(project.definers(lang, n)) == 1 or
                         folder in wanted.callers.get(n, ()) for n in worth):
            chosen.append(path)
    return sorted(chosen)


def default_jobs() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1
