"""Where findings live relative to the repository, and identities for them
that survive edits elsewhere in the file.

Two fingerprints are computed for every finding:

* `primaryLocationLineHash`, in the shape GitHub code scanning uses
  (`<16 hex digits>:<n>`): a hash of the rule id and the finding's line with
  all white space removed, and `n`, the occurrence of that same hash in the
  file (1 for the first).  Lines inserted or removed above the finding, and
  re-indentation, leave it unchanged.
* `nagle-lint/v1`: the same ingredients plus the file's path from the
  repository root.  Baselines are keyed on it.

Both are computed over every finding of a run (suppressed ones included), in
the run's order, before anything is filtered out, so that the occurrence
counters do not depend on which findings a report shows.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from urllib.parse import quote

LINE_HASH = "primaryLocationLineHash"
FINGERPRINT = "nagle-lint/v1"
_KEY = "fingerprints"  # where they are kept in Finding.extra


def find_root(start: str | os.PathLike | None = None) -> Path:
    """The repository root: the nearest folder at or above `start` (default:
    the working directory) that holds `.git`; the working directory itself
    when there is none."""
    here = Path(os.path.abspath(start if start is not None else os.getcwd()))
    for folder in (here, *here.parents):
        if (folder / ".git").exists():
            return folder
    return here


def repo_path(path: str, root: Path) -> str | None:
    """`path` relative to `root`, with forward slashes; None when it lies
    outside the root."""
    rel = os.path.relpath(os.path.abspath(path), root)
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return rel.replace(os.sep, "/")


def uri_of(path: str, root: Path) -> tuple[str, bool]:
    """(URI, relative?): a percent-encoded URI reference relative to `root`,
    or an absolute file URI for a file outside it."""
    rel = repo_path(path, root)
    if rel is None:
        return Path(os.path.abspath(path)).as_uri(), False
    return quote(rel, safe="/"), True


class Lines:
    """The text lines of source files, read once each.  Lines are split and
    decoded the way the frontends do (on b"\\n", UTF-8 with replacement), so
    character columns mean the same thing here."""

    def __init__(self, texts: dict[str, bytes] | None = None):
        """`texts`: path -> the text linted in place of the file there (standard input)."""
        self._texts = texts or {}
        self._cache: dict[str, list[str] | None] = {}

    def data(self, path: str) -> bytes | None:
        """The file's bytes (the text linted in its place, where there is one), or None."""
        data = self._texts.get(path)
        if data is None:
            try:
                with open(path, "rb") as fh:
                    data = fh.read()
            except OSError:
                pass
        return data

    def of(self, path: str) -> list[str] | None:
        if path not in self._cache:
            data = self.data(path)
            self._cache[path] = None if data is None else [
                line.decode("utf-8", "replace").rstrip("\r") for line in data.split(b"\n")
            ]
        return self._cache[path]

    def line(self, path: str, number: int) -> str | None:
        lines = self.of(path)
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def normalize(text: str) -> str:
    """A line with every white-space character removed."""
    return re.sub(r"\s+", "", text)


def _hex(*parts: str, length: int) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:length]


def attach(findings, root: Path | None = None, lines: Lines | None = None) -> None:
    """Compute both fingerprints of every finding (in place, in
    `Finding.extra`); findings that already have them keep them."""
    root = root or find_root()
    lines = lines or Lines()
    seen: dict[tuple[str, str], int] = {}
    for f in findings:
        text = normalize(lines.line(f.path, f.site.line) or "")
        line_hash = _hex(f.rule, text, length=16)
        path = repo_path(f.path, root) or Path(os.path.abspath(f.path)).as_posix()
        key = (path, line_hash)
        seen[key] = seen.get(key, 0) + 1
        if _KEY not in f.extra:
            n = seen[key]
            f.extra[_KEY] = {
                LINE_HASH: f"{line_hash}:{n}",
                FINGERPRINT: _hex("nagle-lint/v1", f.rule, path, text, str(n), length=32),
            }


def of(finding) -> dict[str, str]:
    """The fingerprints of a finding (after `attach`)."""
    return finding.extra[_KEY]
