"""GitLab's code quality report: a JSON array of issues, one per finding, for
`artifacts: reports: codequality:` (GitLab shows them in merge requests).

Paths are from the repository's root, as GitLab wants them; the fingerprint
is the finding's stable one (SARIF's `nagle-lint/v1`), so that GitLab tells
new findings from old.  A suppressed finding (with --include-suppressed) has
`info` severity and its reason in the description."""

from __future__ import annotations

import json
from pathlib import Path

from ..fingerprint import FINGERPRINT, attach, find_root, repo_path
from ..fingerprint import of as fingerprints_of
from .text import suppressed_note

SEVERITY = {"error": "critical", "warning": "major", "note": "minor"}


def issue(f, root: Path) -> dict:
    suppressed = f.suppressed is not None
    return {
        "type": "issue",
        "check_name": f.rule,
        "description": f"{f.rule} {f.message}{suppressed_note(f)}",
        "categories": ["Performance"],
        "fingerprint": fingerprints_of(f)[FINGERPRINT],
        "severity": "info" if suppressed else SEVERITY.get(f.level, "major"),
        "location": {"path": repo_path(f.path, root) or f.path,
                     "lines": {"begin": f.site.line, "end": f.site.end_line}},
    }


def render(result, root: Path | None = None, lines=None, **_) -> str:
    root = root or find_root()
    attach(result.findings, root, lines)
    return json.dumps([issue(f, root) for f in result.findings], indent=2, ensure_ascii=False) + "\n"
