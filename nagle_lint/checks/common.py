"""Small helpers the rule modules share: where to point, and how to name a place."""

from __future__ import annotations

from typing import NamedTuple

from ..findings import Step
from ..model import FileModel, Site
from .flow import Point


class Loc(NamedTuple):
    """A place in some linted file."""

    path: str
    site: Site

    @property
    def line(self) -> int:
        return self.site.line


def common_depth(*points: Point) -> int:
    """How many call frames the points share, from the outermost."""
    depth = 0
    for frames in zip(*(p.stack for p in points)):
        if any(f != frames[0] for f in frames):
            break
        depth += 1
    return depth


def at_depth(p: Point, depth: int) -> Loc:
    """Where `p` is, seen from the frame `depth` calls deep: the call that
    leads to it, or the site itself when it is in that frame."""
    return Loc(*p.stack[depth]) if len(p.stack) > depth else Loc(p.path, p.site)


def named(loc: Loc, here: str) -> str:
    """`line 28`, or `util.py:28` for a place in another file than `here`."""
    return f"line {loc.line}" if loc.path == here else f"{loc.path}:{loc.line}"


def step(loc: Loc, label: str, here: str) -> Step:
    return Step(loc.site, label, None if loc.path == here else loc.path)


def idiom(model: FileModel, name: str, default: str) -> str:
    return model.idioms.get(name, default)
