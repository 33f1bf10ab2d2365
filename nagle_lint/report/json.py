"""Machine-readable findings."""

from __future__ import annotations

import json

from .. import __version__


def finding_dict(f) -> dict:
    return {
        "rule": f.rule,
        "path": f.path,
        "line": f.site.line,
        "column": f.site.col,
        "end_line": f.site.end_line,
        "end_column": f.site.end_col,
        "level": f.level,
        "confidence": f.confidence,
        "message": f.message,
        "fix": f.fix,
        "related": [{"line": s.site.line, "column": s.site.col, "label": s.label} for s in f.related],
        "suppressed": f.suppressed,
    }


def render(result, **_) -> str:
    doc = {
        "tool": "nagle-lint",
        "version": __version__,
        "files": result.files,
        "findings": [finding_dict(f) for f in result.findings],
        "problems": [{"path": p, "message": m} for p, m in result.problems],
    }
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"
