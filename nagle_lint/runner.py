"""Lint a set of files: phase one reads and lowers each file (in parallel),
phase two runs the checks with every model at hand, so that calls across
files are followed (in parallel again, the project shared by forking)."""

from __future__ import annotations

import os

from .config import Settings, selected_rules
from .discover import discover
from .languages import language_of
from .lint import Prepared, Wanted, check, prepare
from .report import Result

PARALLEL_THRESHOLD = 64  # below this many files, starting workers costs more than it saves


def read_file(path: str, settings: Settings, data: bytes | None = None, language: str | None = None,
              wanted: Wanted | None = None):
    """(Prepared or None, problem or None) for one file; never raises for bad input.

    Reading cannot block or run away: the file is opened without waiting (a
    FIFO or a device is refused once open, so nothing can be swapped in after
    a check), only regular files are read, and never more than the size limit.
    A UTF-8 byte-order mark is dropped and UTF-16/32 with a mark is re-encoded
    as UTF-8, so that columns count characters.  Parsing and lowering share the
    per-file time budget.  When a few functions could not be analysed (nested
    too deeply), both the Prepared and a problem naming them are returned."""
    import errno
    import stat
    import time
    from types import SimpleNamespace

    from .languages import frontend

    language = language or language_of(path)
    if language is None:
        return None, "not a Python, Java or C file (by its extension); skipped"
    limit = settings.max_file_size

    def too_big(size: int, more: bool = False) -> str:
        def mb(n):
            return f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{n:,} bytes"
        return (f"too big to lint ({'over ' if more else ''}{mb(size)}; the limit is {mb(limit)}, "
                "see max-file-size); skipped")

    if data is None:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
        try:
            fd = os.open(path, flags)
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
                return None, too_big(st.st_size)
            chunks, total = [], 0
            while True:  # a file may grow while it is read: stop at the limit all the same
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
                total += len(chunk)
                if limit and total > limit:
                    return None, too_big(total, more=True)
            data = b"".join(chunks)
        except OSError as e:
            return None, f"cannot read: {e.strerror or e}; skipped"
        finally:
            os.close(fd)
    elif limit and len(data) > limit:
        return None, too_big(len(data))

    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # a UTF-8 byte-order mark is not a character of the first line
    elif data.startswith((b"\xff\xfe", b"\xfe\xff", b"\0\0\xfe\xff")):
        codec = "utf-32" if data.startswith((b"\xff\xfe\0\0", b"\0\0\xfe\xff")) else "utf-16"
        try:
            data = data.decode(codec).encode("utf-8", "surrogatepass")
        except UnicodeError:
            return None, f"starts with a {codec.upper()} byte-order mark but is not {codec.upper()} text; skipped"
    if b"\0" in data[:8192]:  # where git looks too
        return None, "binary file (NUL bytes); skipped"
    if b"\0" in data:  # a stray NUL further on is read as a space (as C compilers do), not as the end of the file
        data = data.replace(b"\0", b" ")

    fe = frontend(language)
    budget = settings.timeout
    fe.limits = SimpleNamespace(timeout=budget, deadline=time.monotonic() + budget if budget else None, notes=[])
    try:
        prepared = prepare(path, data, settings.min_confidence, language, wanted)
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
    from .project import Project

    prepared, problem = read_file(path, settings, data, language)
    if prepared is None:
        return path, [], problem, 0
    project = Project([prepared.model] if prepared.model else [])
    return path, check([prepared], project, _rules_for(settings), settings.min_confidence), problem, prepared.errors


def _still_wanted(path: str, wanted: Wanted) -> bool:
    """Read a skipped file again (it is in the page cache) to see whether a later round needs it."""
    from .lint import wanted_by

    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return False
    return wanted_by(path, data, wanted)


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


def _read_all(files, settings, jobs, wanted=None):
    if jobs > 1 and len(files) >= PARALLEL_THRESHOLD:
        from concurrent.futures import ProcessPoolExecutor  # only when it pays: its import costs start-up time

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
        if prep is None:
            continue  # not read, or not analysable at all
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
        wanted = project.wanted()
        if not (wanted.again or skipped and wanted):
            break
        chosen = sorted(wanted.again) + [p for p in skipped if _still_wanted(p, wanted)]
        again = []
        for p, prep, problem in _read_all(chosen, settings, jobs, wanted):
            if problem and p not in prepared:  # a file lowered again was reported on already
                result.problems.append((p, problem))
            if prep and prep.model:
                again.append((p, prep))
        if not again:
            break
        for path, prep in again:
            seen = path in prepared
            prepared[path] = prep
            if prep.errors and not seen:
                result.problems.append((path, f"{prep.errors} syntax error{'s' if prep.errors != 1 else ''}; analysed what parsed"))
        skipped = [p for p in skipped if p not in prepared]
        project = Project([p.model for p in prepared.values()])
    order = sorted(prepared)
    if jobs > 1 and len(order) >= PARALLEL_THRESHOLD // 4 and _can_fork():
        from concurrent.futures import ProcessPoolExecutor

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
