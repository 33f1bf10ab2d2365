"""NGL005 stop-and-wait-transfer: a block sent, then a small acknowledgement awaited, every pass."""

from __future__ import annotations

from ..findings import Finding, Step
from ..model import ONE, SMALL, UNKNOWN, FileModel, Loop, Recv, Send, walk
from .flow import Analysis

RULE = "NGL005"

MESSAGE = (
    "each pass of the loop at line {loop} sends a block on '{conn}' and then waits for a small "
    "acknowledgement (line {ack}) before sending the next: the connection idles a round trip per block and "
    "the block's tail can wait for a delayed ACK (~40-200 ms); keep the next block in flight (pipelining) "
    "or acknowledge once at the end"
)


def check(model: FileModel, analysis: Analysis):
    reported = set()
    for fn in model.functions:
        for loop in walk(fn.body):
            if not isinstance(loop, Loop):
                continue
            events = sorted((e for e in walk(loop.body) if isinstance(e, (Send, Recv))), key=lambda e: e.site)
            for i, send in enumerate(events):
                if not isinstance(send, Send) or send.size != UNKNOWN or send.buffered or send.site in reported:
                    continue
                ack = next((e for e in events[i + 1:] if isinstance(e, Recv) and e.conn == send.conn), None)
                if ack is None or ack.size not in (ONE, SMALL):
                    continue
                info = analysis.info_at.get(send.site) or fn.conns.get(send.conn)
                if info is None or info.tcp is False:
                    continue
                reported.add(send.site)
                yield Finding(
                    rule=RULE, path=model.path, site=send.site, level="note", confidence=info.confidence,
                    message=MESSAGE.format(loop=loop.site.line, conn=info.name, ack=ack.site.line),
                    related=(Step(ack.site, "waits for the acknowledgement"),),
                    flow=(Step(send.site, "block sent"), Step(ack.site, "waits for the acknowledgement")),
                    fix="keep one more block in flight before waiting for its acknowledgement, or acknowledge once at the end",
                )
