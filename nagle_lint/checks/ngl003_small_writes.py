"""NGL003 small-writes-in-loop: a byte or a tiny constant sent per iteration."""

from __future__ import annotations

from ..findings import Finding
from ..model import ONE, SMALL, Call, FileModel, Loop, Push, Recv, Send
from ..site import CONFIDENCES
from .common import idiom
from ..model import walk
from .flow import Analysis

RULE = "NGL003"

MESSAGE = (
    "{what} sent on '{conn}' on every pass of the loop at line {loop}: each call is a system call and, with "
    "Nagle, a tail the peer may wait ~40-200 ms for; build the data in one buffer and send it once, or write "
    "through {buffer}"
)


def check(model: FileModel, analysis: Analysis):
    reported = set()
    for fn in model.functions:
        for loop in walk(fn.body):
            if not isinstance(loop, Loop):
                continue
            inside = list(walk(loop.head)) + list(walk(loop.body))
            answered = {e.conn for e in inside if isinstance(e, (Recv, Push))}
            passed = {a for e in inside if isinstance(e, Call) for a in e.args if a}
            for ev in inside:
                if not isinstance(ev, Send) or ev.site in reported:
                    continue
                if ev.size not in (ONE, SMALL) or ev.buffered or ev.gather:
                    continue
                if ev.conn in loop.varies or ev.conn in answered or ev.conn in passed:
                    continue
                info = _best(fn.conns.get(ev.conn), analysis.info_at.get(ev.site))
                if info is None or info.tcp is False:
                    continue
                reported.add(ev.site)
                buffer = idiom(model, "buffer", "a buffered stream")
                yield Finding(
                    rule=RULE, path=model.path, site=ev.site, level="warning", confidence=info.confidence,
                    message=MESSAGE.format(
                        what="one byte" if ev.size == ONE else "a tiny payload", conn=info.name,
                        loop=loop.site.line, buffer=buffer,
                    ),
                    fix=f"collect the bytes in one buffer and send once, or write through {buffer}",
                )


def _best(a, b):
    if a is None or b is None:
        return a or b
    if a.tcp is False or b.tcp is False:
        return a if a.tcp is False else b
    return b if CONFIDENCES.index(b.confidence) > CONFIDENCES.index(a.confidence) else a
