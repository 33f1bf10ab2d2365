"""NGL003 small-writes-in-loop: a byte or a tiny constant sent per iteration."""

from __future__ import annotations

from ..findings import Finding
from ..model import (HOLDS, ONE, SMALL, Bind, Break, Call, Continue, Failed, FileModel, Hold, If, Loop, Pause, Push, Recv,
                     Return, Send, Try, blocks, walk)
from ..site import CONFIDENCES
from .common import idiom
from .flow import Analysis

RULE = "NGL003"

MESSAGE = (
    "{what} sent on '{conn}' on every pass of the loop at line {loop}: each call is a system call and, with "
    "Nagle, a tail the peer may wait ~40-200 ms for; build the data in one buffer and send it once, or write "
    "through {buffer}"
)


def check(model: FileModel, analysis: Analysis):
    reported = set()
    buffer = idiom(model, "buffer", "a buffered stream")
    for fn in model.functions:
        for loop in walk(fn.body):
            for ev, info in _small_sends(fn, loop, analysis, model.path) if isinstance(loop, Loop) else ():
                if ev.site in reported:  # in a loop within a loop: once
                    continue
                reported.add(ev.site)
                yield Finding(
                    rule=RULE, path=model.path, site=ev.site, level="warning", confidence=info.confidence,
                    message=MESSAGE.format(
                        what="one byte" if ev.size == ONE else "a tiny payload", conn=info.name,
                        loop=loop.site.line, buffer=buffer,
                    ),
                    fix=f"collect the bytes in one buffer and send once, or write through {buffer}",
                )


def _small_sends(fn, loop: Loop, analysis: Analysis, path: str):
    """(send, its connection's ConnInfo) of each tiny send that goes out
    again on every pass of `loop`, to a peer that does not answer in it."""
    inside = list(walk(loop.head)) + list(walk(loop.body))
    if any(isinstance(e, Pause) for e in inside):
        return  # paced by a sleep: each send is acknowledged before the next
    # A connection the loop reads from, pushes, hands to a call or changes is not written to blindly.
    spared = loop.varies | {e.conn for e in inside if isinstance(e, (Recv, Push))} \
        | {a for e in inside if isinstance(e, Call) for a in e.args if a}
    headers = _headers(inside, analysis, path)
    for ev in inside:
        if not isinstance(ev, Send) or ev.size not in (ONE, SMALL) or ev.buffered or ev.gather \
                or ev.conn in spared or ev.site in headers:
            continue
        if not _sent_again(loop, ev):
            continue  # the loop comes round again only when the send failed (an EINTR retry)
        if _made_before(loop.head + loop.body, ev, lambda s: _makes(fn, s, ev.conn, analysis.project)):
            continue  # each pass that sends it sends on a connection made in that pass: once per connection
        info = _best(fn.conns.get(ev.conn), analysis.info_at.get(ev.site))
        if info is not None and info.tcp is not False:
            yield ev, info


def _headers(inside, analysis: Analysis, path: str) -> set:
    """The sites of sends that a pass of the loop makes before another send of the same pass, in
    one message split before a read (a two-byte header before its chunk): the split is the
    finding (NGL001's, or the band-aid's where TCP_NODELAY is on), one per pattern."""
    sites = {e.site for e in inside if isinstance(e, Send)}
    return {s.first.site for s in analysis.split_reads
            if s.first.path == s.second.path == path and s.first.site != s.second.site
            and s.first.site in sites and s.second.site in sites}


def _sent_again(loop: Loop, send: Send) -> bool:
    """Whether a pass of `loop` can come round again after `send` went out,
    on a path where it did not fail (the branch of `if (write(...) < 0)`
    that retries is taken because it failed: nothing was sent), nor moved
    a state machine on from the state the send is made in."""
    ends, _, again = _passes(loop.head + loop.body, {False}, send, _stage(loop, send))
    return True in ends | again


def _stage(loop: Loop, send: Send) -> tuple | None:
    """(variable, state) where `send` is made only while a state machine's variable holds that
    state (`if (c->stage == STAGE_INIT) { send(...); c->stage = STAGE_HANDSHAKE; }`) and nothing
    in the loop gives it that state again nor steps it: once moved on, no pass sends it again."""
    guard = _guard(loop.head + loop.body, send, None)
    if guard is None:
        return None
    var, state = guard
    for e in walk(loop.head + loop.body):
        if isinstance(e, Hold) and e.key == var and (e.value is None or e.value == state):
            return None
    return guard


def _made_before(stmts, send: Send, makes) -> bool | None:
    """Whether a statement that `makes` the send's connection comes before
    `send` on every path through `stmts` to it (in its block or a block
    around it); None where `stmts` do not hold it."""
    made = False
    for s in stmts:
        if s is send:
            return made
        if makes(s):
            made = True
        for block in blocks(s):
            found = _made_before(block, send, makes)
            if found is not None:
                return made or found
    return None


def _makes(fn, s, conn: str, project) -> bool:
    """Whether `s` binds `conn` to a new connection, itself or by calling a
    method of the same object that does so before each of its normal returns
    (`self.connect()` setting `self.sock`; not a helper that connects only
    when it holds no connection)."""
    if isinstance(s, Bind):
        return s.conn == conn and not s.dropped
    if not isinstance(s, Call) or s.receiver is not None or project is None or conn in fn.locals:
        return False
    callee = project.resolve(fn, s.callee, len(s.args), s.types)
    if callee is None:
        return False
    # A local the callee keeps in the field (`s = socket(...); ...; self.sock = s`) makes it too.
    names = {conn} | {local for field, local in callee.field_locals if field == conn}
    returns_made, falls_made = _made_on_exits(callee.body, False, lambda b: isinstance(b, Bind) and b.conn in names
                                              and not b.dropped)
    return returns_made and falls_made is not False


def _made_on_exits(stmts, made: bool, makes) -> tuple[bool, bool | None]:
    """(whether every return of `stmts` that is no raise comes after a statement
    that `makes`, whether every path falling out of them does: None where none
    falls out), from `made` at their start.  Where it cannot tell (a loop's or a
    try's way out), it takes the start's."""
    every = True
    for s in stmts:
        if makes(s):
            made = True
        elif isinstance(s, Return):
            return every and (made or s.raised), None
        elif isinstance(s, (Break, Continue)):
            return every, made
        elif isinstance(s, If):
            outs = [] if s.exhaustive else [made]
            for branch in s.branches:
                returns, falls = _made_on_exits(branch, made, makes)
                every = every and returns
                outs += [] if falls is None else [falls]
            if not outs:
                return every, None
            made = all(outs)
        else:
            for block in blocks(s):  # a loop's passes and a try's parts: their returns
                every = every and _made_on_exits(block, made, makes)[0]
    return every, made


def _guard(stmts, send: Send, outer: tuple | None) -> tuple | None:
    """The innermost (variable, state) of a state test whose first branch holds `send`."""
    for s in stmts:
        if s is send:
            return outer
        for i, block in enumerate(blocks(s)):
            tested = s.when[1:] if isinstance(s, If) and i == 0 and s.when and s.when[0] == HOLDS else outer
            found = _guard(block, send, tested)
            if found is not None or any(e is send for e in walk(block)):
                return found
    return None


def _passes(stmts, states: set, send: Send, stage: tuple | None = None):
    """The path flags (True: `send` went out and did not fail, nor moved `stage`'s
    variable on) where `stmts` fall through, break and continue, from those at their start."""
    breaks, again = set(), set()
    for s in stmts:
        if not states:
            break
        flags = _flags_after(s, send, stage)
        if flags is not None:
            states = flags
        elif isinstance(s, Return):
            states = set()
        elif isinstance(s, Break):
            breaks, states = breaks | states, set()
        elif isinstance(s, Continue):
            again, states = again | states, set()
        elif isinstance(s, If):
            out = set() if s.exhaustive else set(states)
            for branch in s.branches:
                ends, b, c = _passes(branch, states, send, stage)
                out |= ends | b if s.switch else ends
                breaks |= set() if s.switch else b
                again |= c
            states = out
        elif isinstance(s, Loop):  # an inner loop: its own break and continue; once or twice round
            ends, b, c = _passes(s.head + s.body, states, send, stage)
            more, b2, c2 = _passes(s.head + s.body, ends | c, send, stage)
            states = states | ends | b | c | more | b2 | c2
        elif isinstance(s, Try):
            out = set(states)
            for part in blocks(s):
                ends, b, c = _passes(part, out, send, stage)
                out |= ends
                breaks |= b
                again |= c
            states = out
    return states, breaks, again


def _flags_after(s, send: Send, stage: tuple | None) -> set | None:
    """The path flags after an event that sets them (see `_passes`), else None."""
    if isinstance(s, Send) and s.site == send.site:
        return {True}
    if isinstance(s, Failed) and s.conn == send.conn:
        return {False}
    if isinstance(s, Hold) and stage is not None and s.key == stage[0]:
        return {False}  # moved on (see `_stage`)
    return None


def _best(a, b):
    if a is None or b is None:
        return a or b
    if a.tcp is False or b.tcp is False:
        return a if a.tcp is False else b
    return b if CONFIDENCES.index(b.confidence) > CONFIDENCES.index(a.confidence) else a
