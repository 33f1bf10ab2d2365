"""NGL006 split-packets: a message split into sends on a connection with
TCP_NODELAY on by design (a framework's default, a user setting, an
interactive protocol): no stall, but one packet per piece."""

from __future__ import annotations

from ..findings import Finding
from ..model import FileModel, Flush, SetOption
from .common import idiom, named, step
from .flow import Analysis
from .ngl001_split_write import fix_for, pieces, split_confidence
from .ngl002_nodelay import nature

RULE = "NGL006"

MESSAGE = (
    "second send on '{conn}' (first at {first}) of one message: TCP_NODELAY is on ({why}), so there is no "
    "stall, but every piece leaves as its own packet; {fix}"
)


def check(model: FileModel, analysis: Analysis):
    project = analysis.project
    default = idiom(model, "nodelay-default", "the framework sets it")
    for at_exit, splits in ((False, analysis.split_reads), (True, analysis.split_exits)):
        for s in splits:
            if s.nodelay is None:
                if s.info.nodelay:
                    yield _finding(model, project, s, default, at_exit)
                continue
            # Set by the code: justified by its nature, the pieces are packets;
            # otherwise the option hides the split (NGL002's band-aid).
            ev = project.event_at(s.nodelay.path, s.nodelay.site)
            why = nature(ev) if isinstance(ev, SetOption) else None
            if why:
                where = named(s.nodelay, pieces(s)[1].path)
                yield _finding(model, project, s, f"{why} at {where}", at_exit)


def _finding(model, project, s, why: str, at_exit: bool) -> Finding:
    first, second, _ = pieces(s)
    read = s.next_read is not None if at_exit else True
    confidence = split_confidence(s, read, at_exit, s.first == s.second)
    here = second.path
    fix = fix_for(model, isinstance(project.event_at(s.second.path, s.second.site), Flush))
    steps = [step(first, "first send", here), step(second, "second send, its own packet", here)]
    return Finding(
        rule=RULE, path=here, site=second.site, level="note", confidence=confidence,
        message=MESSAGE.format(conn=s.info.name, first=named(first, here), why=why, fix=fix),
        related=(steps[0],), flow=tuple(steps), fix=fix,
    )
