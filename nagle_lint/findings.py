"""What a check reports: plain data that every reporter reads."""

from __future__ import annotations

from collections import namedtuple

from .fixes import proposal_data, proposal_from
from .site import Site


class Step(namedtuple("Step", "site label path", defaults=(None,))):
    """Another site that explains the finding (a first send, the read); in
    the finding's file unless `path` names another.  A named tuple, and
    `Finding` written out, not dataclasses: a run served from the cache
    reads findings and loads no dataclasses (a sixth of its time)."""

    __slots__ = ()


class Finding:
    __slots__ = ("rule", "path", "site", "message", "level", "confidence", "related", "flow", "fix", "suppressed",
                 "extra", "proposal")

    def __init__(self, rule: str, path: str, site: Site, message: str, level: str, confidence: str,
                 related: tuple[Step, ...] = (), flow: tuple[Step, ...] = (), fix: str = "",
                 suppressed: str | None = None, extra: dict | None = None, proposal=None):
        self.rule, self.path, self.site, self.message = rule, path, site, message
        self.level = level  # "warning" or "note"
        self.confidence = confidence  # "low", "medium", "high"
        self.related = related
        self.flow = flow  # the path that proves it, in order (first send, second send, read)
        self.fix = fix
        self.suppressed = suppressed  # the justification of an in-source suppression
        self.extra = {} if extra is None else extra
        self.proposal = proposal  # a fixes.Proposal: the edit it suggests, in the model's terms, or None

    def _fields(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other) -> bool:
        return type(other) is Finding and self._fields() == other._fields()

    __hash__ = None  # mutable, as a dataclass would be

    def __repr__(self) -> str:
        return "Finding(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__) + ")"

    def sort_key(self):
        return (self.path, self.site.line, self.site.col, self.rule, self.message)


def to_data(f: Finding) -> dict:
    """A finding as JSON-able data (the cache keeps them so, never as pickles)."""
    site = lambda s: [s.line, s.col, s.end_line, s.end_col]  # noqa: E731
    step = lambda s: [site(s.site), s.label, s.path]  # noqa: E731
    return {"rule": f.rule, "path": f.path, "site": site(f.site), "message": f.message, "level": f.level,
            "confidence": f.confidence, "related": [step(s) for s in f.related], "flow": [step(s) for s in f.flow],
            "fix": f.fix, "suppressed": f.suppressed, "extra": f.extra, "proposal": proposal_data(f.proposal)}


def from_data(d: dict) -> Finding:
    step = lambda s: Step(Site(*s[0]), s[1], s[2])  # noqa: E731
    return Finding(d["rule"], d["path"], Site(*d["site"]), d["message"], d["level"], d["confidence"],
                   tuple(step(s) for s in d["related"]), tuple(step(s) for s in d["flow"]), d["fix"],
                   d["suppressed"], d["extra"], proposal_from(d["proposal"]))
