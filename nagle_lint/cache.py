"""The result cache: re-linting an unchanged tree costs a walk and a stat per
file.  An entry is keyed on the tool's version, the settings and every
file's path, size, modification time and inode; it holds the run's findings
and problems as JSON (never pickles: a cache inside a linted repository is
untrusted input).  Beside it, the text a command printed (its report,
warnings and exit status) for each way of printing it that depends on nothing
but the result: the same command on an unchanged tree prints it again without
loading the result.  Any failure to read or write the cache is ignored."""

from __future__ import annotations

import os

from . import __version__

# The hasher, json and shutil are imported where used: the command line reads
# DIRNAME for its help, and a run with --no-cache needs nothing else.
DIRNAME = ".nagle_lint_cache"
KEEP = 16  # entries kept; older ones are removed


def _tool() -> str:
    """The version, and the code itself (a changed checkout must not reuse results)."""
    here = os.path.dirname(os.path.abspath(__file__))
    parts = [__version__]
    for folder, _, names in sorted(os.walk(here)):
        for name in sorted(names):
            if name.endswith((".py", ".md", ".scm")):
                st = os.stat(os.path.join(folder, name))
                parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


def _sha256():
    """A SHA-256 hasher.  The interpreter's own where it has one: importing
    hashlib loads OpenSSL first, which took 2-3 ms of a 25 ms warm run."""
    try:
        from _sha2 import sha256  # Python 3.12 and later
    except ImportError:
        try:
            from _sha256 import sha256  # up to 3.11
        except ImportError:  # built without them: hashlib's is the same function
            from hashlib import sha256
    return sha256()


def key(files: list[str], settings, extra: tuple = ()) -> str | None:
    lines = [repr((_tool(), sorted(settings.__dict__.items()), extra)), "\n"]
    stat = os.stat
    for path in sorted(files):
        try:
            st = stat(path)
        except OSError:
            return None  # something odd: no caching this run
        lines.append(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n")
    h = _sha256()
    h.update("".join(lines).encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def load(folder: str, digest: str):
    import json

    from .findings import from_data
    from .report import Result

    try:
        with open(os.path.join(folder, f"{digest}.json"), encoding="utf-8") as fh:
            data = json.load(fh)
        return Result([from_data(f) for f in data["findings"]], data["files"],
                      [tuple(p) for p in data["problems"]])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(folder: str, digest: str, result) -> None:
    import json

    from .findings import to_data

    data = {"version": __version__, "files": result.files, "problems": [list(p) for p in result.problems],
            "findings": [to_data(f) for f in result.findings]}
    try:
        os.makedirs(folder, exist_ok=True)
        marker = os.path.join(folder, "CACHEDIR.TAG")
        if not os.path.exists(marker):
            with open(marker, "w", encoding="ascii") as fh:
                fh.write("Signature: 8a477f597d28d172789f06886806bc55\n# nagle-lint's cache; safe to delete.\n")
            with open(os.path.join(folder, ".gitignore"), "w", encoding="ascii") as fh:
                fh.write("*\n")
        _write(os.path.join(folder, f"{digest}.json"), json.dumps(data))
        names = os.listdir(folder)
        entries = sorted((n for n in names if n.endswith(".json")),
                         key=lambda n: os.stat(os.path.join(folder, n)).st_mtime_ns, reverse=True)
        kept = {n[:-len(".json")] for n in entries[:KEEP]}
        for name in names:
            if name.endswith((".json", ".out")) and name.partition(".")[0].partition("-")[0] not in kept:
                os.unlink(os.path.join(folder, name))
    except OSError:
        pass


def _printed(folder: str, digest: str, variant: str) -> str:
    return os.path.join(folder, f"{digest}-{variant}.out")


def replay(folder: str, digest: str, variant: str):
    """(exit status, report, warnings) a command printed for this entry, or None."""
    try:
        with open(_printed(folder, digest, variant), encoding="utf-8", errors="surrogatepass", newline="") as fh:
            status, size = fh.readline().split()
            text = fh.read()
        size = int(size)
        if status not in ("0", "1", "2") or not 0 <= size <= len(text):
            return None
        return int(status), text[:size], text[size:]
    except (OSError, ValueError, UnicodeError):
        return None


def keep_printed(folder: str, digest: str, variant: str, status: int, report: str, warnings: str) -> None:
    """Store what a command printed, once its result is stored under `digest`."""
    try:
        _write(_printed(folder, digest, variant), f"{status} {len(report)}\n{report}{warnings}")
    except OSError:
        pass


def _write(path: str, text: str) -> None:
    """Write `text` whole or not at all (another run may be reading the
    entry): a file of its own, renamed into place; none left on failure."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8", errors="surrogatepass", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except (OSError, UnicodeError) as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise OSError(f"cannot write {path}") from e


def clean(folder: str) -> bool:
    """Remove the cache folder (only if it looks like ours)."""
    if os.path.isfile(os.path.join(folder, "CACHEDIR.TAG")):
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
        return True
    return False
