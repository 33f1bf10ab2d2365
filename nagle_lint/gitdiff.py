"""Which lines changed since a git revision: the pull-request view of a run.

`changed_lines(ref)` compares the working tree with the merge base of `ref`
and HEAD (with `ref` itself when there is no merge base, e.g. in a shallow
clone) and returns, for every file, the line numbers that were added or
changed.  Untracked files count as new in full.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .config import ConfigError


class GitError(ConfigError):
    """git is missing, the folder is not a repository, or the revision is unknown."""


@dataclass
class Changes:
    root: Path  # the repository's top folder; paths below are relative to it
    lines: dict[str, set[int]] = field(default_factory=dict)
    new_files: set[str] = field(default_factory=set)

    def touches(self, path: str, line: int) -> bool:
        return path in self.new_files or line in self.lines.get(path, ())


def _git(args: list[str], cwd: str | os.PathLike | None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as e:
        raise GitError(f"--diff-base needs git: {e.strerror or e}") from None


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def unquote_path(path: str) -> str:
    """A path as git prints it: C-quoted ("a\\tb", octal escapes for bytes) when odd."""
    if not (len(path) >= 2 and path.startswith('"') and path.endswith('"')):
        return path
    body = path[1:-1]
    out = bytearray()
    i = 0
    simple = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in simple:
                out.append(simple[nxt])
                i += 2
                continue
            if re.fullmatch(r"[0-7]{3}", body[i + 1:i + 4]):
                out.append(int(body[i + 1:i + 4], 8))
                i += 4
                continue
        out.extend(ch.encode("utf-8", "surrogateescape"))
        i += 1
    return _text(bytes(out))


HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def parse_diff(diff: str) -> dict[str, set[int]]:
    """{path: added or changed line numbers} from a `git diff --unified=0`."""
    changed: dict[str, set[int]] = {}
    current = None
    for line in diff.split("\n"):
        if line.startswith("+++ "):
            target = unquote_path(line[4:].rstrip("\t"))
            current = target[2:] if target.startswith("b/") else None  # /dev/null: deleted
            if current is not None:
                changed.setdefault(current, set())
            continue
        m = HUNK.match(line)
        if m and current is not None:
            start, count = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
            changed[current].update(range(start, start + count))
    return changed


def changed_lines(ref: str, cwd: str | os.PathLike | None = None) -> Changes:
    if not ref or ref.startswith("-"):
        raise GitError(f"--diff-base: not a git revision: {ref!r}")
    top = _git(["rev-parse", "--show-toplevel"], cwd)
    if top.returncode != 0:
        raise GitError("--diff-base: not inside a git repository")
    root = Path(_text(top.stdout).strip())
    commit = _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], root)
    if commit.returncode != 0:
        raise GitError(f"--diff-base: unknown git revision {ref!r} (is it fetched?)")
    base = _text(commit.stdout).strip()
    merge_base = _git(["merge-base", base, "HEAD"], root)
    if merge_base.returncode == 0 and merge_base.stdout.strip():
        base = _text(merge_base.stdout).strip()
    diff = _git(["-c", "core.quotepath=false", "diff", "--no-color", "--no-ext-diff", "--no-textconv",
                 "--unified=0", "--src-prefix=a/", "--dst-prefix=b/", base, "--"], root)
    if diff.returncode != 0:
        raise GitError(f"--diff-base: git diff failed: {_text(diff.stderr).strip()}")
    untracked = _git(["ls-files", "--others", "--exclude-standard", "-z"], root)
    new_files = {p for p in _text(untracked.stdout).split("\0") if p} if untracked.returncode == 0 else set()
    return Changes(root, parse_diff(_text(diff.stdout)), new_files)
