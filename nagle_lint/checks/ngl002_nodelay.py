"""NGL002 unjustified-nodelay: TCP_NODELAY as a band-aid, or with no reason given."""

from __future__ import annotations

import re

from ..findings import Finding, Step
from ..model import Call, FileModel, Function, passed, SetOption, walk
from .common import at_depth, named, step
from .flow import Analysis, SplitAtExit, is_field, member_of
from .ngl001_split_write import pieces, repeated, split_confidence

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
MESSAGE_DEFAULT = " (this file also sets it from a setting: this is likely that setting's default)"
MESSAGE_TEST = " (in a test or benchmark source: such code often measures latency, and does not run in production)"

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
COMMENT_MARKS = re.compile(r"^\s*(?://+|/\*+|#+|\*+/?)|\*+/\s*$")
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
            line = PLACEHOLDER.sub("", COMMENT_MARKS.sub("", line.strip()).strip())
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
    protocol, a tunnel), or None.  Only this excuses it beside a split message: a comment
    there most often tells the stall it hides ("replies took 40 ms")."""
    if ev.setting:
        return "a user setting turns it on"
    if ev.interactive:
        return "the connection speaks an interactive protocol"
    if isinstance(ev, SetOption) and ev.tunnel:  # (a wrapper's call is judged by the rest)
        return "the connection carries another layer's traffic"
    return None


def check(model: FileModel, analysis: Analysis):
    project = analysis.project
    yield from _bandaids(analysis)
    offered = offers_setting(model)
    for fn in model.functions:
        for ev in walk(fn.body):
            if isinstance(ev, Call) and (any(ev.consts) or ev.options):
                yield from _chosen_at_call(project, model, fn, ev)
            elif isinstance(ev, SetOption) and ev.option == "nodelay" and ev.value:
                yield from _unexplained(project, model, fn, ev, offered)


def _bandaids(analysis: Analysis):
    """The band-aid: a split that does not stall because TCP_NODELAY is on. The
    option may be set in another function or file (a connect(), a factory):
    the finding is on the option's line, wherever that is.  Where the option
    is justified by its nature, the pieces are only packets (NGL006).
    A handler that ends right after the split is the band-aid too: its event
    loop's next read is the one the peer's reply waits for."""
    project = analysis.project
    for split in (*analysis.split_reads, *analysis.split_exits):
        if split.nodelay is not None:
            ev = project.event_at(split.nodelay.path, split.nodelay.site)
            # (A call naming the option to a setter is where it is set: see flow.py.)
            if not (isinstance(ev, (SetOption, Call)) and nature(ev)):
                default = isinstance(ev, SetOption) and offers_setting(project.models.get(split.nodelay.path))
                yield _bandaid(project, split, default)


def _unexplained(project, model: FileModel, fn: Function, ev: SetOption, offered: bool):
    """TCP_NODELAY turned on with no reason given."""
    info = fn.conns.get(ev.conn)
    if info is not None and info.tcp is False or excused(ev):
        return
    # A wrapper over its parameter (`set_nodelay(fd)`, `tcp_nodelay(c)` setting `c->fd`) is judged
    # where it is called: it needs a reason only where a call gives none.
    calls = list(_calls_to(project, fn)) if _of_parameter(ev.conn, fn.params) else []
    bare = [(path, c) for path, c in calls if not excused(c)]
    if calls and not bare:
        return
    yield _undocumented(model, ev.site, offered, tuple(
        Step(c.site, "called here with no reason", None if path == model.path else path) for path, c in bare))


def _of_parameter(conn: str, params) -> bool:
    """Whether a connection is what the callers pass: a parameter, or a member of one (not self's)."""
    owner = None if is_field(conn) else member_of(conn)
    return conn in params or owner is not None and owner in params


def excused(ev) -> bool:
    """Whether an option change (or a call of a wrapper named for it) says why, or needs no
    reason: one end of a socket pair over loopback carries wake-ups, each a byte that must
    leave at once (messages split on it are still the band-aid's)."""
    return bool(nature(ev)) or justified(ev.comment) or isinstance(ev, SetOption) and ev.local_pair


def offers_setting(model: FileModel | None) -> bool:
    """Whether the file lets its users choose TCP_NODELAY: it sets it from a
    setting named for it somewhere.  A constant `on` elsewhere in it is then
    that setting's default (a library's option table), not a choice the code
    makes for its users: said with low confidence.  (A value merely unknown is
    no evidence: an undeclared name would make every finding of a file low.)"""
    return any(isinstance(ev, SetOption) and ev.option == "nodelay" and ev.setting
               for fn in (model.functions if model is not None else ()) for ev in walk(fn.body))


def _calls_to(project, fn: Function):
    """(path, call) of every call of `fn` in the linted files."""
    for caller in project.functions():
        for c in walk(caller.body):
            if isinstance(c, Call) and project.resolve(caller, c.callee, len(c.args), c.types) is fn:
                yield caller.path, c


def _chosen_at_call(project, model: FileModel, caller: Function, call: Call):
    """A wrapper whose value is its parameter (`set_nodelay(fd, on)`), called
    with `on` constant and true, or whose option is (`set_tcp_option(fd, name,
    value)`), called with TCP_NODELAY: the choice, and the finding, are at the call."""
    callee = project.resolve(caller, call.callee, len(call.args), call.types)
    if callee is None or excused(call):
        return
    for ev in walk(callee.body):
        if not isinstance(ev, SetOption) or excused(ev) or ev.value is not None and ev.option_param is None:
            continue
        option = passed(call, callee, ev.option_param, call.options) if ev.option_param else ev.option
        value = ev.value if ev.value is not None else passed(call, callee, ev.value_param, call.consts)
        if option == "nodelay" and value:
            yield _undocumented(model, call.site, False, (Step(ev.site, "sets TCP_NODELAY", callee.path),))


def _undocumented(model: FileModel, site, default: bool, related: tuple) -> Finding:
    """The note, with low confidence where the option is a setting's default
    (see `offers_setting`) or the file a test's or a benchmark's (a latency
    measurement wants the option; code that does not ship sets it for no user)."""
    return Finding(
        rule=RULE, path=model.path, site=site, level="note",
        confidence="low" if default or model.test_source else "high",
        message=MESSAGE_UNDOCUMENTED + (MESSAGE_DEFAULT if default else "")
        + (MESSAGE_TEST if model.test_source else ""), related=related,
        fix="add a comment saying why (interactive traffic, each message written in one call, a latency budget)",
        extra={"strength": "undocumented"},
    )


def _bandaid(project, split, default: bool) -> Finding:
    """The finding on the option's line; with low confidence where the option
    is the default of a setting its file offers (the users may turn it off)."""
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
    confidence = split_confidence(split, read is not None, True, repeated(project, split)) if at_exit else "high"
    if default:
        confidence = "low"
    return Finding(
        rule=RULE, path=here, site=split.nodelay.site, level="warning", confidence=confidence,
        message=MESSAGE_BANDAID.format(conn=split.info.name, first=named(first, here), second=named(second, here),
                                       then=then),
        related=tuple(places),
        flow=(Step(split.nodelay.site, "TCP_NODELAY on"), *places),
        fix="send each message in one write (one buffer, a gathering write or a buffered stream flushed once)",
        extra={"strength": "band-aid"},
    )
