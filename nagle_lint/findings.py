"""What a check reports: plain data that every reporter reads."""

from __future__ import annotations

from dataclasses import dataclass, field

from .site import Site


@dataclass(frozen=True, slots=True)
class Step:
    """Another site that explains the finding (a first send, the read); in
    the finding's file unless `path` names another."""

    site: Site
    label: str
    path: str | None = None


@dataclass(slots=True)
class Finding:
    rule: str
    path: str
    site: Site
    message: str
    level: str  # "warning" or "note"
    confidence: str  # "low", "medium", "high"
    related: tuple[Step, ...] = ()
    # The path that proves it, in order (first send, second send, read).
    flow: tuple[Step, ...] = ()
    fix: str = ""
    suppressed: str | None = None  # the justification of an in-source suppression
    extra: dict = field(default_factory=dict)

    def sort_key(self):
        return (self.path, self.site.line, self.site.col, self.rule, self.message)


def to_data(f: Finding) -> dict:
    """A finding as JSON-able data (the cache keeps them so, never as pickles)."""
    site = lambda s: [s.line, s.col, s.end_line, s.end_col]  # noqa: E731
    step = lambda s: [site(s.site), s.label, s.path]  # noqa: E731
    return {"rule": f.rule, "path": f.path, "site": site(f.site), "message": f.message, "level": f.level,
            "confidence": f.confidence, "related": [step(s) for s in f.related], "flow": [step(s) for s in f.flow],
            "fix": f.fix, "suppressed": f.suppressed, "extra": f.extra}


def from_data(d: dict) -> Finding:
    step = lambda s: Step(Site(*s[0]), s[1], s[2])  # noqa: E731
    return Finding(d["rule"], d["path"], Site(*d["site"]), d["message"], d["level"], d["confidence"],
                   tuple(step(s) for s in d["related"]), tuple(step(s) for s in d["flow"]), d["fix"],
                   d["suppressed"], d["extra"])
