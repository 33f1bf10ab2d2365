"""Small helpers the rule modules share: where to point, and what a site is."""

from __future__ import annotations

from ..model import FileModel, Site
from .flow import Point, walk


def common_depth(*points: Point) -> int:
    """How many call frames the points share, from the outermost."""
    depth = 0
    for frames in zip(*(p.stack for p in points)):
        if any(f != frames[0] for f in frames):
            break
        depth += 1
    return depth


def at_depth(p: Point, depth: int) -> Site:
    """The site of `p` as seen from the frame `depth` calls deep: the call
    that leads to it, or the site itself when it is in that frame."""
    return p.stack[depth] if len(p.stack) > depth else p.site


def events_by_site(model: FileModel) -> dict:
    index = {}
    for fn in model.functions:
        for ev in walk(fn.body):
            site = getattr(ev, "site", None)
            if site is not None:
                index.setdefault(site, ev)
    return index


def idiom(model: FileModel, name: str, default: str) -> str:
    return model.idioms.get(name, default)
