"""Which files to lint: folders walked, build and tool folders skipped,
files git ignores left out (in a git work tree: every .gitignore from the
top of the work tree down, and .git/info/exclude), excludes applied, only
the languages we read.  Patterns follow gitignore's rules, as pathspec's
GitIgnoreSpec reads them: `src/*.py` is anchored to the folder it is
written from and does not match `src/sub/x.py`; `vendor` matches at any
depth; `build/` matches folders only; `!keep.py` takes a file back.  Each
folder's entries are judged by that folder's settings (its nearest
configuration file's: see config.Resolver)."""

from __future__ import annotations

import os

from .languages import language_of

SKIP_DIRS = {
    ".git", ".hg", ".svn", ".venv", "venv", ".env", "env", "node_modules", "__pycache__", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", "build", "dist", "target", "site-packages", ".eggs",
    ".nagle_lint_cache", ".idea", ".gradle",
}


class Patterns:
    """gitignore-style patterns written from the folder `base`."""

    def __init__(self, base: str, lines):
        from pathspec import GitIgnoreSpec  # here: a tree without patterns does not load it

        self.base = os.path.abspath(base)
        self.spec = GitIgnoreSpec.from_lines(lines)

    def prefix(self, folder: str) -> str | None:
        """The path of the absolute `folder` from `base`, ending in '/' (''
        for base itself), or None where the patterns do not reach it."""
        rel = os.path.relpath(folder, self.base)
        if rel == ".":
            return ""
        if rel == os.pardir or rel.startswith(os.pardir + os.sep):
            return None
        return rel.replace(os.sep, "/") + "/"

    def decides(self, prefix: str | None, name: str, is_dir: bool) -> bool | None:
        """True: matched (ignored), False: taken back by a `!` pattern, None: no pattern says."""
        if prefix is None:
            return None
        return self.spec.check_file(prefix + name + ("/" if is_dir else "")).include


def excludes(settings) -> list[Patterns]:
    """A Settings' exclude patterns: the configuration's, written from its
    file's folder (else the current folder), and the command line's
    (`--exclude`), written from the current folder, as a shell path is."""
    here = os.getcwd()
    found = [(settings.folder() or here, settings.exclude), (here, settings.cli_exclude)]
    return [Patterns(base, lines) for base, lines in found if lines]


def excluded(path: str, patterns) -> bool:
    """Whether a file named on the command line is excluded, as a walk
    would leave it out: it, or a folder it lies in, matches one of
    `patterns` (a list of Patterns)."""
    for p in patterns:
        rel = p.prefix(os.path.abspath(path))
        if not rel:
            continue
        parts = rel.rstrip("/").split("/")
        if any(p.spec.check_file("/".join(parts[:n]) + ("/" if n < len(parts) else "")).include
               for n in range(1, len(parts) + 1)):
            return True
    return False


def discover(paths: list[str], settings, force_exclude: bool = False):
    """Yield (path, error) pairs: error is None for a file to lint, or a
    message for a path that cannot be linted.  `settings`: a Settings, or
    a config.Resolver (each folder's own); their excludes, and whether to
    leave out what git ignores."""
    seen = set()
    for root in paths:
        if not os.path.lexists(root):
            yield root, "no such file or directory"
            continue
        if os.path.isdir(root):
            if len(paths) == 1:  # one walk meets each file once: nothing to tell apart
                yield from ((path, None) for path, _ in _walk(root, settings))
                continue
            top = _same(root)
            for path, rel in _walk(root, settings):
                key = os.path.normcase(os.path.join(top, rel))
                if key not in seen:
                    seen.add(key)
                    yield path, None
        elif force_exclude and excluded(root, excludes(settings.of(root))):
            continue
        elif _same(root) not in seen:
            seen.add(_same(root))
            yield root, None  # named explicitly: linted whatever its extension says, if we know the language


def _same(path: str) -> str:
    """One spelling for one file: `./a.py`, `a.py` and `src/../a.py` are the same."""
    return os.path.normcase(os.path.abspath(path))


def _within(path: str, root: str) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def git_top(root: str) -> str | None:
    """The top of the git work tree holding `root`, or None."""
    folder = os.path.abspath(root)
    while not os.path.lexists(os.path.join(folder, ".git")):
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return folder


def project_tops(paths: list[str]) -> tuple[str, ...]:
    """The tops of the projects holding `paths` (absolute): each one's git
    work tree top, else the folder itself (a file's: its folder)."""
    folders = [p if os.path.isdir(p) else os.path.dirname(p) or "." for p in paths]
    return tuple(sorted({git_top(f) or os.path.abspath(f) for f in folders}))


def _git_ignores(root: str, top: str) -> list[Patterns]:
    """What git ignores in the folders above `root`, outermost first: the
    work tree's .git/info/exclude and each .gitignore from its top down to
    root's parent (root's own is read by the walk)."""
    rules = [_patterns_in(top, os.path.join(top, ".git", "info", "exclude"))]
    folder, above = os.path.abspath(root), []
    while folder != top:
        folder = os.path.dirname(folder)
        above.append(folder)
    rules += [_patterns_in(f, os.path.join(f, ".gitignore")) for f in reversed(above)]
    return [r for r in rules if r is not None]


def _patterns_in(base: str, path: str) -> Patterns | None:
    """The patterns of a regular file (not a link), or None."""
    import stat

    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    return Patterns(base, lines) if any(line.strip() and not line.startswith("#") for line in lines) else None


def _walk(root: str, settings):
    """Yield (path, path relative to root) for each file to lint under root,
    each folder's entries judged by that folder's settings (`settings.in_folder`).
    Relative paths are built as the walk goes (not worked out per file)."""
    top = git_top(root)
    patterns: dict[int, tuple] = {}  # id(Settings) -> (Settings, its exclude Patterns)
    stack = [(root, "", _git_ignores(root, top) if top is not None else [])]
    while stack:
        folder, rel_folder, ignores = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        own = next((e for e in entries if e.name == ".gitignore"), None) if top is not None else None
        found = _patterns_in(folder, own.path) if own is not None else None
        if found is not None:
            ignores = [*ignores, found]
        here = settings.in_folder(folder)
        if id(here) not in patterns:
            patterns[id(here)] = here, excludes(here)  # the Settings kept: its id is not reused
        leaves_out = _leaves_out(folder, ignores if here.respect_gitignore else [], patterns[id(here)][1])
        subdirs = []
        for e in entries:
            try:
                is_dir = e.is_dir(follow_symlinks=False)
                if not _may_hold_code(e.name, is_dir) or leaves_out(e.name, is_dir):
                    continue
                if is_dir:
                    subdirs.append((e.path, rel_folder + e.name + os.sep, ignores))
                # A link out of the tree (a pull request's `x.py -> ~/.ssh/...`) is not followed.
                elif e.is_file() and not (e.is_symlink() and not _within(e.path, root)):
                    yield e.path, rel_folder + e.name
            except OSError:
                continue
        stack.extend(reversed(subdirs))


def _may_hold_code(name: str, is_dir: bool) -> bool:
    """A folder that is no build or tool folder, a file of a language we read."""
    if is_dir:
        return name not in SKIP_DIRS and not name.endswith(".egg-info")
    return language_of(name) is not None


def _leaves_out(folder: str, gitignored: list, excluding: list):
    """Whether the patterns leave an entry of `folder` out: a function of (name, is_dir)."""
    if not gitignored and not excluding:
        return lambda name, is_dir: False
    absolute = os.path.abspath(folder)
    excluded_at = [(p, p.prefix(absolute)) for p in excluding]
    ignored_at = [(p, p.prefix(absolute)) for p in reversed(gitignored)]
    return lambda name, is_dir: any(p.decides(prefix, name, is_dir) for p, prefix in excluded_at) \
        or _ignored(ignored_at, name, is_dir)


def _ignored(prefixes, name: str, is_dir: bool) -> bool:
    """As git decides: the deepest .gitignore with a pattern for the name wins."""
    for p, prefix in prefixes:
        verdict = p.decides(prefix, name, is_dir)
        if verdict is not None:
            return verdict
    return False
