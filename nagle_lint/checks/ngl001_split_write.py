"""NGL001 split-write-before-read: the write-write-read stall."""

from __future__ import annotations

from ..findings import Finding
from ..fixes import JOIN, Proposal
from ..model import FileModel, Flush, If, Loop, Send, blocks, walk
from ..site import lower
from .common import at_depth, common_depth, idiom, named, step
from .flow import Analysis

RULE = "NGL001"

STALL = "Nagle holds it until the peer's delayed ACK (~40 ms on Linux, ~200 ms elsewhere)"
STALL_LOWER = STALL[0].lower() + STALL[1:]
MESSAGE_READ = "second send on '{conn}' ({first}) before the read at {read} waits for the peer: {stall}; {fix}"
MESSAGE_NEXT = (
    "second send on '{conn}' ({first}), then the handler returns; called again for the next "
    "request, it waits at {read} while {stall}; {fix}"
)
MESSAGE_EXIT = (
    "second send on '{conn}' ({first}) and then the function returns, so the peer waits "
    "for the rest of the message while {stall}; {fix}"
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
    # With TCP_NODELAY on (set by the code: NGL002's band-aid; on by default in
    # asyncio, Netty: NGL006) split sends cost packets, not a stall.
    project = analysis.project
    reads = (s for s in analysis.split_reads if s.nodelay is None and not s.info.nodelay)
    for s, others in _per_message(project, reads, lambda s: (s.conn, s.read, s.first, _frame(s))):
        yield _finding(model, project, s, s.read, repeated(project, s), at_exit=False, others=others)
    exits = (s for s in analysis.split_exits if s.nodelay is None and not s.info.nodelay)
    for s, others in _per_message(project, exits, lambda s: (s.conn, s.end, _frame(s))):
        yield _finding(model, project, s, s.next_read, repeated(project, s), at_exit=True,
                       answered=s.conn in model.read_paths, others=others)


def _per_message(project, splits, message):
    """One split per message, however many ways its pieces pair (`ok = ok && send_row(...)`
    repeated pairs the first row with each later one): the one whose second send comes first,
    with the other second sends. `message(split)` tells the messages apart: the connection, the
    frame the split is reported in, and the read that waits for the answer and the first piece,
    or the end of the function. Second sends in different arms of a branch (`#ifdef`, if/else,
    switch) are alternatives, each its own finding."""
    groups: dict = {}
    for s in splits:
        groups.setdefault(message(s), []).append(s)
    arms_of: dict = {}
    for group in groups.values():
        group.sort(key=lambda s: (pieces(s)[1].site, pieces(s)[0].site, len(s.second.stack), len(s.first.stack)))
        clusters: list[tuple] = []  # (split, its second send, the other second sends)
        for s in group:
            second = pieces(s)[1]
            home = next((c for c in clusters
                         if not any(_exclusive(project, second, p, arms_of) for p in (c[1], *c[2]))), None)
            if home is None:
                clusters.append((s, second, []))
            elif second != home[1] and second not in home[2]:
                home[2].append(second)
        for s, _, others in clusters:
            yield s, [p for p in others if p != pieces(s)[0]]  # the first send is named already


def _frame(s) -> tuple:
    """The call of the function a split is reported in: the calls leading to the frame both
    sends are reached from."""
    return s.second.stack[:pieces(s)[2]]


def _exclusive(project, p, q, arms_of: dict) -> bool:
    """Whether two places of one function lie in different arms of one branch (`arms_of`:
    path -> `_arms` of the file, filled as needed)."""
    if p.path != q.path:
        return False
    if p.path not in arms_of:
        arms_of[p.path] = _arms(project, p.path)
    around_p, around_q = arms_of[p.path].get(p.site, {}), arms_of[p.path].get(q.site, {})
    return any(around_q.get(branch, arm) != arm for branch, arm in around_p.items())


def _arms(project, path: str) -> dict:
    """Site -> {id of each branch statement around it: the arm it is in}, over a file's functions."""
    found: dict = {}
    model = project.models.get(path)
    for fn in model.functions if model is not None else ():
        _arms_in(fn.body, {}, found)
    return found


def _arms_in(stmts, around: dict, found: dict) -> None:
    for s in stmts:
        site = getattr(s, "site", None)
        if site is not None and not blocks(s):
            found.setdefault(site, dict(around))
        if isinstance(s, If):
            for i, branch in enumerate(s.branches):
                _arms_in(branch, {**around, id(s): i}, found)
        else:
            for block in blocks(s):
                _arms_in(block, around, found)


def repeated(project, s) -> bool:
    """Whether a split is one send repeated by a loop, not a loop over the
    pieces of one message (see `Loop.pieces`)."""
    return s.first == s.second and not any(loop.pieces for loop in _loops_around(project, s.first))


def _loops_around(project, point):
    """The loops around a point's site, and around the calls it was reached through."""
    for path, site in (*point.stack, (point.path, point.site)):
        model = project.models.get(path)
        for fn in model.functions if model is not None else ():
            for loop in walk(fn.body):
                if isinstance(loop, Loop) and any(getattr(e, "site", None) == site
                                                  for e in walk(loop.head + loop.body)):
                    yield loop


def split_confidence(s, read: bool, at_exit: bool, repeated: bool, answered: bool = False) -> str:
    """How sure a split is one message the peer waits for.  `answered`: the
    file reads the connection elsewhere, by the same member (`peer->sd`): a
    receive handler waits there for the answer to the whole message; or the
    framework reads the answer on it (`ConnInfo.answered`)."""
    if repeated:
        return "low"  # one send repeated by a loop: most often one message per pass
    if not at_exit or answered or s.info.answered:
        return s.info.confidence
    # A handler that reads, answers in pieces and returns: its event loop is
    # the back edge. Sure it is called again only when registered as a callback.
    return s.info.confidence if read and s.callback else lower(s.info.confidence)


def pieces(s):
    """(first, second) send of a split, seen from the frame both are reached from, and that frame's depth."""
    depth = common_depth(s.first, s.second)
    return at_depth(s.first, depth), at_depth(s.second, depth), depth


def _first_piece(first, second, here: str) -> str:
    """Where the first piece was sent, said of the second's line when it is the same: one call
    there sends in pieces (a write per character, a macro of two sends)."""
    if first.path == second.path and first.site.line == second.site.line:
        return "the first sent by the same line: that code sends in pieces"
    return f"first at {named(first, here)}"


def _finding(model, project, s, read_point, repeated: bool, at_exit: bool, answered: bool = False,
             others=()) -> Finding:
    first, second, depth = pieces(s)
    here = second.path
    second_event = project.event_at(s.second.path, s.second.site)
    fix = fix_for(model, isinstance(second_event, Flush))
    read = at_depth(read_point, depth) if read_point is not None else None
    words = {"conn": s.info.name, "first": _first_piece(first, second, here), "fix": fix, "stall": STALL_LOWER}
    if not at_exit:
        message = MESSAGE_READ.format(read=named(read, here), **{**words, "stall": STALL})
    elif read is not None:
        message = MESSAGE_NEXT.format(read=named(read, here), **words)
    else:
        message = MESSAGE_EXIT.format(**words)
    confidence = split_confidence(s, read is not None, at_exit, repeated, answered)
    steps = [step(first, "first send", here), step(second, "second send, held by Nagle", here)]
    if read is not None:
        steps.append(step(read, "the read that waits", here))
    steps += [step(p, "another piece sent on its own", here) for p in others]
    return Finding(
        rule=RULE, path=here, site=second.site, message=message, level="warning", confidence=confidence,
        related=tuple(x for i, x in enumerate(steps) if i != 1), flow=tuple(steps), fix=fix,
        proposal=None if s.first == s.second else _join(project, s, depth, second_event),  # one call: nothing to join
    )


def _join(project, s, depth: int, second) -> Proposal | None:
    """Join the two sends, when both are plain sends in one function (not
    calls of helpers that send), or both flushes of a buffered stream (the
    writes between them then leave as one)."""
    if len(s.first.stack) != depth or len(s.second.stack) != depth or s.first.path != s.second.path:
        return None
    first = project.event_at(s.first.path, s.first.site)
    sends = isinstance(first, Send) and isinstance(second, Send) and not first.gather and not second.gather
    if not sends and not (isinstance(first, Flush) and isinstance(second, Flush)):
        return None
    return Proposal(JOIN, (s.first.site, s.second.site))
