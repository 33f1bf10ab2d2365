"""NGL002 unjustified-nodelay: TCP_NODELAY as a band-aid, or with no reason given."""

from __future__ import annotations

import re

from ..findings import Finding, Step
from ..model import FileModel, SetOption
from .common import at_depth, common_depth
from .flow import Analysis, walk

RULE = "NGL002"

MESSAGE_BANDAID = (
    "TCP_NODELAY on '{conn}' hides split sends (line {second} sends the second piece of a message started "
    "at line {first}, then line {read} reads): every piece becomes its own packet; send each message in one "
    "write and drop the option"
)
MESSAGE_UNDOCUMENTED = (
    "TCP_NODELAY turned on with no reason given: if messages are written in one call it changes little, if "
    "they are split it hides the stall; say why in a comment on this line or the line above"
)

# Words that only restate what the option does: a comment made of these explains nothing.
RESTATING = set(
    """
    tcp tcp_nodelay nodelay no delay nagle nagle's nagles algorithm algorithms disable disables disabled disabling
    turn turns turned off on set sets setting enable enables enabled option options opt socket sockets sock so
    the a an to for of is it this that we here and true false ipproto ipproto_tcp sol sol_tcp setsockopt
    settcpnodelay setoption standardsocketoptions channeloption also just now then be with our via
    """.split()
)
# Words that carry a reason even in a short comment.
REASONS = set(
    """
    because since latency interactive keystroke keystrokes realtime real-time real time game games gaming
    market trading quotes ticks telemetry rpc frame frames framed each single one-way budget deadline
    """.split()
)


def justified(comment: str) -> bool:
    words = re.findall(r"[a-z][a-z0-9_'-]*", comment.lower())
    words = [w for w in words if w not in ("nagle-lint", "ignore", "noqa")]
    if any(w in REASONS for w in words):
        return True
    return len([w for w in words if w not in RESTATING]) >= 3


def check(model: FileModel, analysis: Analysis):
    bandaid = {}
    for s in analysis.split_reads:
        if s.nodelay is not None:
            bandaid.setdefault(s.nodelay.site, s)
    seen = set()
    for fn in model.functions:
        for ev in walk(fn.body):
            if not (isinstance(ev, SetOption) and ev.option == "nodelay" and ev.value) or ev.site in seen:
                continue
            seen.add(ev.site)
            info = fn.conns.get(ev.conn)
            if info is not None and info.tcp is False:
                continue
            name = info.name if info else ev.conn
            split = bandaid.get(ev.site)
            if split is not None:
                depth = common_depth(split.first, split.second)
                first, second = at_depth(split.first, depth), at_depth(split.second, depth)
                read = at_depth(split.read, depth)
                fix = "send each message in one write (one buffer, a gathering write or a buffered stream flushed once)"
                yield Finding(
                    rule=RULE, path=model.path, site=ev.site, level="warning", confidence="high",
                    message=MESSAGE_BANDAID.format(conn=name, first=first.line, second=second.line, read=read.line),
                    related=(Step(first, "first send"), Step(second, "second send"), Step(read, "the read")),
                    flow=(Step(ev.site, "TCP_NODELAY on"), Step(first, "first send"), Step(second, "second send"), Step(read, "the read")),
                    fix=fix, extra={"strength": "band-aid"},
                )
            elif not justified(ev.comment):
                yield Finding(
                    rule=RULE, path=model.path, site=ev.site, level="note", confidence="high",
                    message=MESSAGE_UNDOCUMENTED,
                    fix="add a comment saying why (interactive traffic, each message written in one call, a latency budget)",
                    extra={"strength": "undocumented"},
                )
