"""The result cache: re-linting an unchanged tree costs a walk and a read of
each file.  An entry is keyed on the tool's version, the settings and every
file's path and content (its digest: a file changed with its size and time
kept is changed); it holds the run's findings and problems as JSON (never
pickles).  Beside it, the text a command printed (its report, warnings and
exit status) for each way of printing it that depends on nothing but the
result: the same command on an unchanged tree prints it again without
loading the result.

The cache usually lies inside the tree being linted, which may be a pull
request's checkout: untrusted input.  So the folder is used only when it is
a real folder owned by this user that nobody else can write, made by
nagle-lint (it holds CACHEDIR.TAG) and holding regular files only, and no
file of it is tracked by git (an entry committed to a repository is not one
this tool wrote); every file is opened without following symbolic links,
relative to the opened folder, and written whole under a temporary name
renamed into place.  When anything looks wrong the cache is ignored, with
one warning (`Cache.warning`), and the run goes on without it."""

from __future__ import annotations

import errno
import os
import stat
import time

from . import __version__
from .output import write_all

# json and shutil are imported where used: the command line reads DIRNAME
# for its help, and a run with --no-cache needs nothing else.
DIRNAME = ".nagle_lint_cache"
ENV = "NAGLE_LINT_CACHE_DIR"  # where the cache goes, as --cache-dir
KEEP = 16  # entries kept; older ones are removed
RECORD = "files"  # the extension of a per-file record (see store.py)
USES = "uses"  # the extension of the keys of the lowerings a record's run used, beside it
LOWERING = "lowering"  # the extension of a file's lowering (see store.py)
KEEP_RECORDS = 4  # per-file records kept (one per set of paths linted); older ones are removed, and the
# lowerings none of those used
TAG = "CACHEDIR.TAG"
SETTLED_NS = 2 * 10**9  # see `file_digests`
_TAG_TEXT = "Signature: 8a477f597d28d172789f06886806bc55\n# nagle-lint's cache; safe to delete.\n"

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# Where files can be opened relative to an open folder (not on Windows;
# os.replace is renameat like os.rename),
# nothing can swap a link in for the folder once it is checked.
_DIR_FD = os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd and os.scandir in os.supports_fd
# A file to lint opened as the runner opens it: a FIFO or a device cannot make it wait.
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0) | _CLOEXEC


_TOOL: list[str] = []


def tool() -> str:
    """The version, and the code itself (a changed checkout must not reuse
    results); found once a process."""
    if not _TOOL:
        _TOOL.append(_tool())
    return _TOOL[0]


def _tool() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    parts = [__version__]
    for folder, _, names in sorted(os.walk(here)):
        for name in sorted(names):
            if name.endswith((".py", ".md", ".scm")):
                st = os.stat(os.path.join(folder, name))
                parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return "\n".join(parts)


def _hasher():
    """BLAKE2b, the interpreter's own: importing hashlib loads OpenSSL
    first, which took 2-3 ms of a 25 ms warm run."""
    try:
        from _blake2 import blake2b
    except ImportError:  # built without it: hashlib's is the same function
        from hashlib import blake2b
    return blake2b(digest_size=32)


def file_digests(files: list[str], settings, known: dict | None = None,
                 signatures: dict | None = None) -> dict[str, tuple[str, str]] | None:
    """path -> (digest of the file's bytes, digest of its settings
    `settings.of(path)`), None where a file cannot be read as the run would
    read it (no caching this run).  A file over its size limit, which the
    run skips unread, is digested by its size alone.

    `known`: path -> (signature, digest) an earlier run took (see
    `signatures`): a file whose signature is still that is not read again.
    `signatures`: filled with path -> the file's signature (size,
    modification and change times, inode, device), or None where the file
    changed less than SETTLED_NS before it was read: a write within the
    clock's tick can keep every time (git's "racy" files), and no write can
    set the change time back, so a file changed since it was read always
    has another signature."""
    out = {}
    by_settings: dict[int, str] = {}  # id(Settings) -> its digest (most runs have one)
    now = time.time_ns()
    for path in files:
        own = settings.of(path)
        if id(own) not in by_settings:
            by_settings[id(own)] = _digest(repr(sorted(own.__dict__.items())).encode("utf-8", "surrogateescape"))
        before = known.get(path) if known else None
        if before is not None:
            try:
                st = os.stat(path)
            except (OSError, ValueError):
                return None
            if stat.S_ISREG(st.st_mode) and _signature(st) == before[0]:
                out[path] = (before[1], by_settings[id(own)])
                if signatures is not None:
                    signatures[path] = before[0]
                continue
        try:
            fd = os.open(path, _READ)
        except (OSError, ValueError):
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return None
            h = content_hasher(st.st_size)
            if not own.max_file_size or st.st_size <= own.max_file_size:
                while True:
                    chunk = os.read(fd, 1 << 20)
                    if not chunk:
                        break
                    h.update(chunk)
        except OSError:
            return None
        finally:
            os.close(fd)
        out[path] = (h.hexdigest(), by_settings[id(own)])
        if signatures is not None:
            signatures[path] = _signature(st) if now - max(st.st_mtime_ns, st.st_ctime_ns) > SETTLED_NS else None
    return out


def _signature(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def key(files: list[str], settings, extra: tuple = (), digests: dict | None = None) -> str | None:
    """The key of a run over `files`: None where a file cannot be read as
    the run would read it (see `file_digests`, given as `digests` where
    they are known already)."""
    digests = file_digests(files, settings) if digests is None else digests
    if digests is None:
        return None
    h = _hasher()
    h.update(repr((tool(), extra)).encode("utf-8", "surrogateescape"))
    for path in sorted(files):
        h.update(f"\n{path}\0{digests[path][0]}\0{digests[path][1]}".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def content_hasher(size: int):
    """The hasher of a file's content digest, begun with its size (which
    alone stands for the content of a file over its size limit)."""
    h = _hasher()
    h.update(f"{size}\0".encode())
    return h


def _digest(data: bytes) -> str:
    h = _hasher()
    h.update(data)
    return h.hexdigest()


class Cache:
    """One cache folder.  Opened on first use (made when `create`); every
    later use goes through the opened folder.  `warning`: why it was
    ignored, if it was."""

    def __init__(self, folder: str):
        self.folder = folder
        self.warning: str | None = None
        self._fd: int | None = None  # the folder, opened (where _DIR_FD)
        self._state: bool | None = None  # usable: None until opened
        self._checked_git = False

    # -- opening and checking

    def _ignore(self, why: str) -> None:
        if self.warning is None:
            self.warning = f"the result cache {self.folder} is ignored: {why}"
        self._state = False
        self.close()

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _open(self, create: bool) -> bool:
        """Whether the folder can be used (made first when `create`)."""
        if self._state is not None:
            return self._state
        folder = self.folder
        try:
            fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC)
        except FileNotFoundError:
            if not create:
                return False  # nothing stored yet: asked again when there is something to store
            try:
                parent = os.path.dirname(os.path.abspath(folder))
                if not os.path.isdir(parent):
                    os.makedirs(parent)
                os.mkdir(folder, 0o700)
            except FileExistsError:
                pass  # made by a run at the same time: checked like any other
            except OSError as e:
                self._ignore(f"cannot create it ({e.strerror or e})")
                return False
            return self._open(create)
        except OSError as e:
            if e.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                self._ignore("it is a symbolic link or not a folder")
            else:
                self._ignore(f"cannot open it ({e.strerror or e})")
            return False
        try:
            st = os.fstat(fd)
        except OSError as e:
            os.close(fd)
            self._ignore(f"cannot open it ({e.strerror or e})")
            return False
        if _DIR_FD:
            self._fd = fd
        else:
            os.close(fd)
        why = _unsafe(st)
        if why is None:
            why = self._check_contents(create)
        if why is not None:
            self._ignore(why)
            return False
        self._state = True
        return True

    def _check_contents(self, create: bool) -> str | None:
        """Why the folder's entries are not to be trusted, or None; an empty
        folder is made ours (when `create`)."""
        try:
            with os.scandir(self._fd if self._fd is not None else self.folder) as it:
                entries = list(it)
        except OSError as e:
            return f"cannot list it ({e.strerror or e})"
        for e in entries:
            if e.is_symlink() or not e.is_file(follow_symlinks=False):
                return f"{e.name} in it is a symbolic link or not a regular file"
        names = {e.name for e in entries}
        if TAG not in names:
            if names:
                return f"it was not made by nagle-lint (no {TAG}); remove it or choose another folder"
            if create:
                try:
                    self._write(TAG, _TAG_TEXT)
                    self._write(".gitignore", "*\n")
                except OSError as e:
                    return f"cannot write to it ({e})"
        return None

    def _trusted_entries(self) -> bool:
        """Whether what the folder holds may be read: none of it is tracked
        by git (checked once, before the first entry is read)."""
        if not self._checked_git:
            self._checked_git = True
            why = _tracked(self.folder)
            if why is not None:
                self._ignore(why)
        return self._state is True

    # -- files in the folder, never through a link

    def _open_file(self, name: str, flags: int, mode: int = 0o600) -> int:
        flags |= _NOFOLLOW | _CLOEXEC | getattr(os, "O_BINARY", 0)
        if self._fd is not None:
            return os.open(name, flags, mode, dir_fd=self._fd)
        return os.open(os.path.join(self.folder, name), flags, mode)

    def _read(self, name: str) -> bytes | None:
        """The bytes of the entry `name`, None where there is none; a link or
        anything but a regular file of this user makes the cache ignored."""
        if not self._open(False) or not self._trusted_entries():
            return None
        try:
            fd = self._open_file(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except FileNotFoundError:
            return None
        except OSError as e:
            if e.errno in (errno.ELOOP, errno.EMLINK):
                self._ignore(f"{name} in it is a symbolic link")
            return None
        try:
            st = os.fstat(fd)
            why = _unsafe(st, regular=True)
            if why is not None:
                self._ignore(f"{name} in it: {why}")
                return None
            chunks = []
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    return b"".join(chunks)
                chunks.append(chunk)
        except OSError:
            return None
        finally:
            os.close(fd)

    def _write(self, name: str, text: str | bytes) -> None:
        """Write `text` whole or not at all (another run may be reading the
        entry): a new file of its own, renamed into place (a link of that
        name is replaced, never followed); none left on failure."""
        tmp = f".{name}.tmp{os.getpid()}"
        try:
            data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
            fd = self._open_file(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
            try:
                write_all(fd, data)
            finally:
                os.close(fd)
            if self._fd is not None:
                os.replace(tmp, name, src_dir_fd=self._fd, dst_dir_fd=self._fd)
            else:
                os.replace(os.path.join(self.folder, tmp), os.path.join(self.folder, name))
        except (OSError, UnicodeError) as e:
            try:
                self._unlink(tmp)
            except OSError:
                pass
            raise OSError(f"cannot write {name}") from e

    def _unlink(self, name: str) -> None:
        if self._fd is not None:
            os.unlink(name, dir_fd=self._fd)
        else:
            os.unlink(os.path.join(self.folder, name))

    def _mtime(self, name: str) -> int:
        if self._fd is not None:
            return os.stat(name, dir_fd=self._fd, follow_symlinks=False).st_mtime_ns
        return os.lstat(os.path.join(self.folder, name)).st_mtime_ns

    # -- results and what was printed

    def load(self, digest: str):
        import json

        from .findings import from_data
        from .report import Result

        raw = self._read(f"{digest}.json")
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            return Result([from_data(f) for f in data["findings"]], data["files"],
                          [tuple(p) for p in data["problems"]])
        except (ValueError, KeyError, TypeError, AttributeError):
            return None

    def store(self, digest: str, result) -> None:
        import json

        from .findings import to_data

        if not self._open(True):
            return
        data = {"version": __version__, "files": result.files, "problems": [list(p) for p in result.problems],
                "findings": [to_data(f) for f in result.findings]}
        try:
            self._write(f"{digest}.json", json.dumps(data))
            with os.scandir(self._fd if self._fd is not None else self.folder) as it:
                names = [e.name for e in it]
            entries = sorted((n for n in names if n.endswith(".json")), key=self._mtime, reverse=True)
            kept = {n[:-len(".json")] for n in entries[:KEEP]}
            for name in names:
                if name.endswith((".json", ".out")) and name.partition(".")[0].partition("-")[0] not in kept:
                    self._unlink(name)
        except OSError:
            pass

    def replay(self, digest: str, variant: str):
        """(exit status, report, warnings) a command printed for this entry, or None."""
        raw = self._read(f"{digest}-{variant}.out")
        if raw is None:
            return None
        try:
            head, _, rest = raw.partition(b"\n")
            status, size = head.decode("ascii").split()
            text = rest.decode("utf-8", "surrogatepass")
            size = int(size)
            if status not in ("0", "1", "2") or not 0 <= size <= len(text):
                return None
            return int(status), text[:size], text[size:]
        except (ValueError, UnicodeError):
            return None

    def load_record(self, name: str):
        """The per-file record `name` (see store.py) as JSON data, or None."""
        import json

        raw = self._read(f"{name}.{RECORD}")
        if raw is None:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return None

    def load_lowering(self, key: str) -> bytes | None:
        """The lowering kept under `key` (see store.py), or None."""
        return self._read(f"{key}.{LOWERING}")

    def store_record(self, name: str, data, lowerings: dict[str, bytes], uses: list[str]) -> None:
        """Keep the per-file record `name`, the new `lowerings` (key ->
        data), and beside the record the keys of the lowerings it `uses`;
        then only the KEEP_RECORDS newest records, and the lowerings they use."""
        import json

        if not self._open(True):
            return
        try:
            for key, text in lowerings.items():  # first: a record never names lowerings not there yet
                self._write(f"{key}.{LOWERING}", text)
            self._write(f"{name}.{USES}", "\n".join(uses))
            self._write(f"{name}.{RECORD}", json.dumps(data, separators=(",", ":")))
            self._prune_records()
        except OSError:  # a record not kept only costs the next run its reuse
            pass

    def _prune_records(self) -> None:
        with os.scandir(self._fd if self._fd is not None else self.folder) as it:
            names = [e.name for e in it]
        records = sorted((n for n in names if n.endswith(f".{RECORD}")), key=self._mtime, reverse=True)
        kept = {n[:-len(RECORD)] for n in records[:KEEP_RECORDS]}
        used = set()
        for name in kept:
            used.update((self._read(name + USES) or b"").decode("ascii", "replace").split("\n"))
        for old in names:
            if old.endswith((f".{RECORD}", f".{USES}")) and old[:old.rindex(".") + 1] not in kept \
                    or old.endswith(f".{LOWERING}") and old[:-len(LOWERING) - 1] not in used:
                self._unlink(old)

    def keep_printed(self, digest: str, variant: str, status: int, report: str, warnings: str) -> None:
        """Store what a command printed, once its result is stored under `digest`."""
        if not self._open(True):
            return
        try:
            self._write(f"{digest}-{variant}.out", f"{status} {len(report)}\n{report}{warnings}")
        except OSError:
            pass


def _unsafe(st: os.stat_result, regular: bool = False) -> str | None:
    """Why a folder (or a file, `regular`) of the cache cannot be trusted, or None."""
    if regular and not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if not regular and not stat.S_ISDIR(st.st_mode):
        return "not a folder"
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        return "owned by another user"
    if st.st_mode & 0o022:
        return "others can write to it"
    return None


def _tracked(folder: str) -> str | None:
    """Why the cache folder cannot be trusted as git sees it (a file of it
    is tracked, or that cannot be checked), or None: outside any work tree,
    git is not asked."""
    from .discover import git_top

    here = os.path.abspath(folder)
    top = git_top(here)
    if top is None:
        return None
    import subprocess

    try:
        # core.fsmonitor names a command to run: never one from a repository's own config.
        listed = subprocess.run(["git", "-c", "core.fsmonitor=false", "ls-files", "-z", "--", here],
                                cwd=top, capture_output=True, check=False)
    except OSError as e:
        return f"it lies in a git work tree and git cannot tell whether it is tracked ({e.strerror or e})"
    if listed.returncode != 0:
        return "it lies in a git work tree and git cannot tell whether it is tracked"
    if listed.stdout:
        return "git tracks files in it (a cache committed to the repository is not one nagle-lint wrote)"
    return None


def clean(folder: str) -> bool:
    """Remove the cache folder, only if it looks like ours: a real folder
    (not a link to one) holding CACHEDIR.TAG.  The folder's own links are
    removed, never followed."""
    try:
        st = os.lstat(folder)
        tag = os.lstat(os.path.join(folder, TAG))
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or not stat.S_ISREG(tag.st_mode):
        return False
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
    return not os.path.lexists(folder)
