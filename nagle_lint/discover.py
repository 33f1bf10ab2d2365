"""Which files to lint: folders walked, build and tool folders skipped,
excludes applied, only the languages we read."""

from __future__ import annotations

import os

from .languages import language_of

SKIP_DIRS = {
    ".git", ".hg", ".svn", ".venv", "venv", ".env", "env", "node_modules", "__pycache__", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", "build", "dist", "target", "site-packages", ".eggs",
    ".nagle_lint_cache", ".idea", ".gradle",
}


def matches(path: str, pattern: str) -> bool:
    """gitignore-like: a pattern with a slash matches the path (from the
    linted root), one without matches any part of it."""
    import fnmatch  # here: it imports `re`, which a run without excludes may not need

    path = path.replace(os.sep, "/")
    while path.startswith("./"):
        path = path[2:]
    pattern = pattern.rstrip("/")
    if "/" in pattern:
        pattern = pattern.lstrip("/")
        return fnmatch.fnmatch(path, pattern) or fnmatch.fnmatch(path, pattern + "/*")
    return any(fnmatch.fnmatch(part, pattern) for part in path.split("/"))


def discover(paths: list[str], exclude: tuple[str, ...], force_exclude: bool = False, base: str | None = None):
    """Yield (path, error) pairs: error is None for a file to lint, or a
    message for a path that cannot be linted."""
    seen = set()
    for root in paths:
        if not os.path.lexists(root):
            yield root, "no such file or directory"
            continue
        if os.path.isdir(root):
            if len(paths) == 1:  # one walk meets each file once: nothing to tell apart
                yield from ((path, None) for path, _ in _walk(root, exclude, base))
                continue
            top = _same(root)
            for path, rel in _walk(root, exclude, base):
                key = os.path.normcase(os.path.join(top, rel))
                if key not in seen:
                    seen.add(key)
                    yield path, None
        elif force_exclude and any(matches(root, p) for p in exclude):
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


def _walk(root: str, exclude, base: str | None = None):
    """Yield (path, path relative to root) for each file to lint under root.
    Relative paths are built as the walk goes (not worked out per file)."""
    from_base = None  # root as seen from the config file's folder, where its patterns are written from
    if base is not None and exclude:
        from_base = os.path.relpath(os.path.abspath(root), base)
        if from_base.startswith(".."):
            from_base = None
    stack = [(root, "")]
    while stack:
        folder, rel_folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        subdirs = []
        for e in entries:
            rel = rel_folder + e.name
            if exclude:
                rels = [rel] if from_base is None else [rel, os.path.normpath(os.path.join(from_base, rel))]
                if any(matches(r, p) for r in rels for p in exclude):
                    continue
            try:
                if e.is_dir(follow_symlinks=False):
                    if e.name not in SKIP_DIRS and not e.name.endswith(".egg-info"):
                        subdirs.append((e.path, rel + os.sep))
                elif language_of(e.name) and e.is_file():
                    if e.is_symlink() and not _within(e.path, root):
                        continue  # a link out of the tree (a pull request's `x.py -> ~/.ssh/...`) is not followed
                    yield e.path, rel
            except OSError:
                continue
        stack.extend(reversed(subdirs))
