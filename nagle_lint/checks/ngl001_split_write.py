"""NGL001 split-write-before-read: the write-write-read stall."""

from __future__ import annotations

from ..findings import Finding, Step
from ..model import Flush, FileModel, lower
from .common import at_depth, common_depth, events_by_site, idiom
from .flow import Analysis

RULE = "NGL001"

STALL = "Nagle holds it until the peer's delayed ACK (~40 ms on Linux, ~200 ms elsewhere)"
MESSAGE_READ = "second send on '{conn}' (first at line {first}) before the read at line {read} waits for the peer: {stall}; {fix}"
MESSAGE_PACKETS = (
    "second send on '{conn}' (first at line {first}) before the read at line {read}: this connection has "
    "TCP_NODELAY on by default ({why}), so there is no stall, but every piece leaves as its own packet; {fix}"
)
MESSAGE_PACKETS_EXIT = (
    "second send on '{conn}' (first at line {first}) of one reply: this connection has TCP_NODELAY on by "
    "default ({why}), so there is no stall, but every piece leaves as its own packet; {fix}"
)
MESSAGE_NEXT = (
    "second send on '{conn}' (first at line {first}), then the handler returns; called again for the next "
    "request, it waits at line {read} while {stall_lower}; {fix}"
)
MESSAGE_EXIT = (
    "second send on '{conn}' (first at line {first}) and then the function returns, so the peer waits "
    "for the rest of the message while {stall_lower}; {fix}"
)


def fix_for(model: FileModel, flushed: bool) -> str:
    if flushed:
        return f"write the whole message into {idiom(model, 'buffer', 'the buffered stream')} and flush once"
    fix = (
        f"send head and body in one write ({idiom(model, 'join', 'one buffer')}) "
        f"or gather them ({idiom(model, 'gather', 'a gathering write')})"
    )
    if "buffer" in model.idioms:
        fix += f", or write through {model.idioms['buffer']}"
    return fix


def check(model: FileModel, analysis: Analysis):
    events = events_by_site(model)
    for s in analysis.split_reads:
        if s.nodelay is not None:
            continue  # no stall: that is NGL002's band-aid case
        depth = common_depth(s.first, s.second)
        second, first = at_depth(s.second, depth), at_depth(s.first, depth)
        read = at_depth(s.read, depth)
        flushed = isinstance(events.get(s.second.site), Flush)
        fix = fix_for(model, flushed)
        if s.info.nodelay:  # asyncio, Netty: packets, not a stall
            yield Finding(
                rule=RULE, path=model.path, site=second, level="note", confidence=s.info.confidence,
                message=MESSAGE_PACKETS.format(conn=s.info.name, first=first.line, read=read.line,
                                               why=idiom(model, "nodelay-default", "the framework sets it"), fix=fix),
                related=(Step(first, "first send"), Step(read, "the read")),
                flow=(Step(first, "first send"), Step(second, "second send, its own packet"), Step(read, "the read")),
                fix=fix,
            )
            continue
        yield Finding(
            rule=RULE,
            path=model.path,
            site=second,
            message=MESSAGE_READ.format(conn=s.info.name, first=first.line, read=read.line, stall=STALL, fix=fix),
            level="warning",
            # One send repeated by a loop is most often one message per pass (a
            # reply per command): shown only when asked for low confidence.
            confidence="low" if s.first == s.second else s.info.confidence,
            related=(Step(first, "first send"), Step(read, "the read that waits for the reply")),
            flow=(Step(first, "first send"), Step(second, "second send, held by Nagle"), Step(read, "the read waits")),
            fix=fix,
        )
    for s in analysis.split_exits:
        depth = common_depth(s.first, s.second)
        second, first = at_depth(s.second, depth), at_depth(s.first, depth)
        fix = fix_for(model, isinstance(events.get(s.second.site), Flush))
        stall_lower = STALL[0].lower() + STALL[1:]
        steps = [Step(first, "first send"), Step(second, "second send, held by Nagle")]
        if s.next_read is not None:
            # A handler that reads, answers in pieces and returns: its event loop is the back edge.
            read = at_depth(s.next_read, depth)
            message = MESSAGE_NEXT.format(conn=s.info.name, first=first.line, read=read.line, stall_lower=stall_lower, fix=fix)
            # Sure it is called again only when it is registered as a callback.
            confidence = s.info.confidence if s.callback else lower(s.info.confidence)
            steps.append(Step(read, "the next request's read"))
        else:
            message = MESSAGE_EXIT.format(conn=s.info.name, first=first.line, stall_lower=stall_lower, fix=fix)
            confidence = lower(s.info.confidence)
        if s.first == s.second:
            confidence = "low"  # one send repeated by a loop: most often one message per pass
        level = "warning"
        if s.info.nodelay:  # asyncio, Netty: packets, not a stall
            level = "note"
            message = MESSAGE_PACKETS_EXIT.format(conn=s.info.name, first=first.line, fix=fix,
                                                  why=idiom(model, "nodelay-default", "the framework sets it"))
        yield Finding(
            rule=RULE, path=model.path, site=second, message=message, level=level, confidence=confidence,
            related=tuple(x for x in steps if x.site != second), flow=tuple(steps), fix=fix,
        )
