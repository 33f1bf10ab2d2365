"""NGL002 unjustified-nodelay: TCP_NODELAY as a band-aid, or with no reason given."""

from __future__ import annotations

import re

from ..findings import Finding, Step
from ..model import FileModel, SetOption
from .common import at_depth, named, step
from ..model import walk
from .flow import Analysis, SplitAtExit
from .ngl001_split_write import pieces, split_confidence

RULE = "NGL002"

MESSAGE_BANDAID = (
    "TCP_NODELAY on '{conn}' hides split sends ({second} sends the second piece of a message started "
    "at {first}, then {then}): every piece becomes its own packet; send each message in one "
    "write and drop the option"
)
THEN_READ = "{read} reads"
THEN_NEXT = "the handler returns and the next request is read at {read}"
THEN_EXIT = "the function returns while the peer waits for the rest"
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


# Words that carry no reason: filler, hedges, and what any change could say.
FILLER = set(
    """
    need needs needed must should want wants required important note ok okay fine safe safety guess maybe
    probably really very please make sure better good work works working fix fixes fixed workaround stuff thing
    things do does done use uses used using might may i you us it's i'm don't doesn't else anyway again still
    """.split()
)
# Where a to-do starts: what follows it is a plan, not a reason.
PLACEHOLDER = re.compile(r"\b(?:todo|fixme|xxx|hack|tbd)\b.*", re.I)
# One comment of several (each starts with its marker; a block comment holds its lines).
COMMENT_START = re.compile(r"(?=//|/\*|#)")
MARKERS = re.compile(r"^\s*(?://+|/\*+|#+|\*+/?)|\*+/\s*$")
OPTION_NAMED = re.compile(r"no_?delay|nagle", re.I)


def reasons(comment: str) -> list[str]:
    """The lines of a comment that may give a reason: not a doc comment about
    a declaration that never names the option (a method's Javadoc), not code
    put aside (commented out), not the to-do part of a line."""
    kept = []
    for part in COMMENT_START.split(comment):
        if part.lstrip().startswith("/**") and not OPTION_NAMED.search(part):
            continue
        for line in part.splitlines():
            line = PLACEHOLDER.sub("", MARKERS.sub("", line.strip()).strip())
            if line and not _code(line):
                kept.append(line)
    return kept


def _code(line: str) -> bool:
    """A line that reads as code: a statement or call ending it, a brace, an assignment."""
    if re.search(r"[{}]", line):
        return True
    if re.search(r"\w\(.*\)\s*;?\s*$", line) or line.endswith(";"):
        return True
    return bool(re.fullmatch(r"[\w.\[\]>-]+\s*=\s*[^=\s]+", line))


def justified(comment: str) -> bool:
    words = re.findall(r"[a-z][a-z0-9_'-]*", " ".join(reasons(comment)).lower())
    words = [w for w in words if w not in ("nagle-lint", "ignore", "noqa")]
    if any(w in REASONS for w in words):
        return True
    return len([w for w in words if w not in RESTATING and w not in FILLER]) >= 3


def nature(ev: SetOption) -> str | None:
    """What justifies TCP_NODELAY by its nature (a user setting, an interactive
    protocol), or None.  Only this excuses it beside a split message: a comment
    there most often tells the stall it hides ("replies took 40 ms")."""
    if ev.setting:
        return "a user setting turns it on"
    if ev.interactive:
        return "the connection speaks an interactive protocol"
    return None


def check(model: FileModel, analysis: Analysis):
    # The band-aid: a split that does not stall because TCP_NODELAY is on. The
    # option may be set in another function or file (a connect(), a factory):
    # the finding is on the option's line, wherever that is.  Where the option
    # is justified by its nature, the pieces are only packets (NGL006).
    # A handler that ends right after the split is the band-aid too: its event
    # loop's next read is the one the peer's reply waits for.
    project = analysis.project
    for split in (*analysis.split_reads, *analysis.split_exits):
        if split.nodelay is not None:
            ev = project.event_at(split.nodelay.path, split.nodelay.site)
            if not (isinstance(ev, SetOption) and nature(ev)):
                yield _bandaid(split)
    for fn in model.functions:
        for ev in walk(fn.body):
            if not (isinstance(ev, SetOption) and ev.option == "nodelay" and ev.value):
                continue
            info = fn.conns.get(ev.conn)
            if info is not None and info.tcp is False or nature(ev) or justified(ev.comment):
                continue
            yield Finding(
                rule=RULE, path=model.path, site=ev.site, level="note", confidence="high",
                message=MESSAGE_UNDOCUMENTED,
                fix="add a comment saying why (interactive traffic, each message written in one call, a latency budget)",
                extra={"strength": "undocumented"},
            )


def _bandaid(split) -> Finding:
    here = split.nodelay.path
    first, second, depth = pieces(split)
    at_exit = isinstance(split, SplitAtExit)
    read_point = split.next_read if at_exit else split.read
    read = at_depth(read_point, depth) if read_point is not None else None
    places = [step(first, "first send", here), step(second, "second send", here)]
    if read is not None:
        places.append(step(read, "the read", here))
    then = (THEN_EXIT if read is None else THEN_NEXT if at_exit else THEN_READ).format(
        read=named(read, here) if read is not None else "")
    confidence = split_confidence(split, read is not None, True, split.first == split.second) if at_exit else "high"
    return Finding(
        rule=RULE, path=here, site=split.nodelay.site, level="warning", confidence=confidence,
        message=MESSAGE_BANDAID.format(conn=split.info.name, first=named(first, here), second=named(second, here),
                                       then=then),
        related=tuple(places),
        flow=(Step(split.nodelay.site, "TCP_NODELAY on"), *places),
        fix="send each message in one write (one buffer, a gathering write or a buffered stream flushed once)",
        extra={"strength": "band-aid"},
    )
