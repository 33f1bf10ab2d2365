"""Adopting nagle-lint on an existing code base.

* `--write-baseline FILE` records the current findings; `--baseline FILE`
  then reports only findings that are not in it.  Findings are matched on
  their `nagle-lint/v1` fingerprint (rule, file, the text of the line, and
  which occurrence of that text it is), not on line numbers, so code may move
  around them.
* `--diff-base REF` reports only findings whose primary line was added or
  changed since the git revision REF (the pull-request view).
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path

from .config import ConfigError
from .fingerprint import FINGERPRINT, Lines, attach, find_root, repo_path
from .fingerprint import of as fingerprints_of

FORMAT_VERSION = 1


class BaselineError(ConfigError):
    """A baseline file that cannot be read, parsed or written."""


def entries(findings, root: Path) -> list[dict]:
    """The baseline records of the shown (unsuppressed) findings."""
    out = []
    for f in findings:
        if f.suppressed is None:
            out.append({
                "fingerprint": fingerprints_of(f)[FINGERPRINT],
                "rule": f.rule,
                "path": repo_path(f.path, root) or f.path,
                "line": f.site.line,
                "message": f.message,
            })
    out.sort(key=lambda e: (e["path"], e["line"], e["rule"], e["fingerprint"]))
    return out


def write(path: str, findings, root: Path) -> int:
    """Write the baseline of `findings`; the number of findings recorded."""
    records = entries(findings, root)
    doc = {"tool": "nagle-lint", "version": FORMAT_VERSION, "findings": records}
    from .output import write_text

    try:
        write_text(path, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    except OSError as e:
        raise BaselineError(f"cannot write the baseline {path}: {e.strerror or e}") from None
    return len(records)


def load(path: str) -> Counter:
    """The fingerprints a baseline records (with their counts)."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except FileNotFoundError:
        raise BaselineError(f"{path}: no such baseline file (create one with --write-baseline)") from None
    except OSError as e:
        raise BaselineError(f"{path}: cannot read the baseline: {e.strerror or e}") from None
    except ValueError as e:
        raise BaselineError(f"{path}: not a nagle-lint baseline (invalid JSON: {e})") from None
    if not isinstance(doc, dict) or doc.get("tool") != "nagle-lint" or not isinstance(doc.get("findings"), list):
        raise BaselineError(f"{path}: not a nagle-lint baseline")
    if doc.get("version") != FORMAT_VERSION:
        raise BaselineError(f"{path}: baseline format version {doc.get('version')!r} is not supported "
                            f"(expected {FORMAT_VERSION}); write it again with --write-baseline")
    prints = Counter()
    for entry in doc["findings"]:
        if not isinstance(entry, dict) or not isinstance(entry.get("fingerprint"), str):
            raise BaselineError(f"{path}: every finding needs a 'fingerprint' string")
        prints[entry["fingerprint"]] += 1
    return prints


def without_baseline(findings, known: Counter) -> tuple[list, int]:
    """The findings not in the baseline, and how many were hidden."""
    left = Counter(known)
    kept, hidden = [], 0
    for f in findings:
        fp = fingerprints_of(f)[FINGERPRINT]
        if f.suppressed is None and left[fp] > 0:
            left[fp] -= 1
            hidden += 1
        else:
            kept.append(f)
    return kept, hidden


def only_changed(findings, changes) -> tuple[list, int]:
    """The findings on lines added or changed (see gitdiff.Changes)."""
    root = os.path.realpath(changes.root)
    kept, hidden = [], 0
    for f in findings:
        rel = os.path.relpath(os.path.realpath(f.path), root)
        inside = not (rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel))
        if not inside or changes.touches(rel.replace(os.sep, "/"), f.site.line):
            kept.append(f)  # a file outside the repository cannot be compared: it is kept
        else:
            hidden += 1
    return kept, hidden


def reported_only(result, baseline: str | None, diff_base: str | None, start: str | None = None):
    """Take out of `result` the findings --baseline and --diff-base leave
    out of the report, and return what --fix needs to leave the same ones
    alone in the passes after the first: a filter of a file's findings,
    linted again from its fixed `text`, matched on fingerprints (the text
    of the line, which fixes elsewhere leave as it was)."""
    start = _existing_folder(start or ".")
    root = find_root(start)
    every = list(result.findings)
    adopt(result, baseline, None, diff_base, quiet=True, root=root, start=start)
    kept = {id(f) for f in result.findings}
    hidden = Counter(fingerprints_of(f)[FINGERPRINT] for f in every if id(f) not in kept and f.suppressed is None)

    def keep(path: str, text: bytes, findings: list) -> list:
        if not hidden:
            return findings
        attach(findings, root, Lines({path: text}))
        return without_baseline(findings, hidden)[0]

    return keep


def _existing_folder(path: str) -> str:
    """The folder of `path` (itself if a folder), or the nearest one above it that exists."""
    folder = os.path.abspath(path)
    if not os.path.isdir(folder):
        folder = os.path.dirname(folder)
    while not os.path.isdir(folder) and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
    return folder


def adopt(result, baseline: str | None = None, write_baseline: str | None = None,
          diff_base: str | None = None, quiet: bool = False, root: Path | None = None,
          start: str | None = None) -> None:
    """Apply --diff-base, --baseline and --write-baseline to a run's result
    (in place).  The repository is the one holding `start` (the first
    linted path; default: the working folder), wherever the run starts."""
    start = _existing_folder(start or ".")
    root = root or find_root(start)
    attach(result.findings, root, Lines())  # before anything is filtered: stable occurrence counters
    notes = []
    changes = None
    if diff_base:
        from .gitdiff import changed_lines

        changes = changed_lines(diff_base, start)
    known = load(baseline) if baseline else None
    if write_baseline:
        n = write(write_baseline, result.findings, root)
        notes.append(f"wrote {n} finding{'s' if n != 1 else ''} to the baseline {write_baseline}")
        known = load(write_baseline)
    if changes is not None:
        result.findings, hidden = only_changed(result.findings, changes)
        if hidden:
            notes.append(f"{hidden} finding{'s' if hidden != 1 else ''} on lines unchanged since {diff_base} not shown")
    if known is not None:
        result.findings, hidden = without_baseline(result.findings, known)
        if hidden:
            notes.append(f"{hidden} finding{'s' if hidden != 1 else ''} in the baseline not shown")
    if notes and not quiet:
        for note in notes:
            print(f"nagle-lint: {note}", file=sys.stderr)
