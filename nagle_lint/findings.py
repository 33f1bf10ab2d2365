"""What a check reports: plain data that every reporter reads."""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import Site


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
