"""Small helpers the rule modules share: where to point, and how to name a place."""

from __future__ import annotations

from ..findings import Step
from ..model import FileModel
from .flow import Point


def common_depth(*points: Point) -> int:
    """How many call frames the points share, from the outermost."""
    depth = 0
    for frames in zip(*(p.stack for p in points)):
        if any(f != frames[0] for f in frames):
            break
        depth += 1
    return depth


def at_depth(p: Point, depth: int) -> Point:
    """Where `p` is, seen from the frame `depth` calls deep: the call that
    leads to it, or the site itself when it is in that frame."""
    if len(p.stack) > depth:
        path, site = p.stack[depth]
        return Point(site, (), path)
    return Point(p.site, (), p.path)


def named(p: Point, here: str) -> str:
    """`line 28`, or `util.py:28` for a place in another file than `here`."""
    return f"line {p.site.line}" if p.path == here else f"{p.path}:{p.site.line}"


def step(p: Point, label: str, here: str) -> Step:
    return Step(p.site, label, None if p.path == here else p.path)


def idiom(model: FileModel, name: str, default: str) -> str:
    return model.idioms.get(name, default)
