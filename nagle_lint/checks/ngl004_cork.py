"""NGL004 cork-not-released: data left in a cork or behind MSG_MORE."""

from __future__ import annotations

from ..findings import Finding, Step
from ..fixes import DROP_MORE, UNCORK, Proposal
from ..model import Call, FileModel, Function, Recv, SetOption, passed, walk
from .common import named, step
from .flow import Analysis

RULE = "NGL004"

MESSAGE_CORK = (
    "'{conn}' is corked here and data sent at {held} is still corked {when}: the kernel holds it up to "
    "200 ms; turn the cork off after the last piece of the message"
)
MESSAGE_MORE = (
    "MSG_MORE on the last send on '{conn}' before {when}: the kernel holds it up to 200 ms waiting for more; "
    "drop MSG_MORE from the last piece of the message"
)


def check(model: FileModel, analysis: Analysis):
    released = None
    for h in analysis.held:
        anchor = h.cork or h.more
        if anchor is None:
            continue
        if h.cork is None and not h.at_read:
            released = _released_before_reading(model) if released is None else released
            if h.conn in released:
                continue  # left for the file's next read of it, which lets it out first
        here = anchor.path
        when = f"when the reply is read at {named(h.at, here)}" if h.at_read else "when the function returns"
        if h.cork is not None:
            message = MESSAGE_CORK.format(conn=h.info.name, held=named(h.held, here), when=when)
            fix = "turn TCP_CORK off (setsockopt ..., 0) once the whole message is written"
            # Rewritten only where the cork and the data it holds are in the function itself.
            direct = not h.cork.stack and not h.held.stack and h.cork.path == h.held.path
            proposal = Proposal(UNCORK, (h.cork.site, h.held.site)) if direct else None
        else:
            before = f"the read at {named(h.at, here)}" if h.at_read else "the function returns"
            message = MESSAGE_MORE.format(conn=h.info.name, when=before)
            fix = "send the last piece without MSG_MORE"
            proposal = Proposal(DROP_MORE, (h.more.site,))
        steps = [step(h.held, "data held", here)]
        if h.at_read:
            steps.append(step(h.at, "the read", here))
        yield Finding(
            rule=RULE, path=here, site=anchor.site, level="warning", confidence=h.info.confidence,
            message=message, related=tuple(steps), flow=(Step(anchor.site, "held from here"), *steps), fix=fix,
            proposal=proposal,
        )


def _released_before_reading(model: FileModel) -> set[str]:
    """The connections some function of the file turns TCP_CORK off on (itself, or through a
    function of the file given it) before it reads them (lwan's TLS handshake: the receive
    callback calls `flush_pending_output(fd)` before `recv`): MSG_MORE data left when another
    function returns leaves before the peer's answer is awaited."""
    functions = {fn.qualname: fn for fn in model.functions}
    found = set()
    for fn in model.functions:
        uncorked = set()
        for e in walk(fn.body):
            if isinstance(e, SetOption) and e.option == "cork" and e.value is False:
                uncorked.add(e.conn)
            elif isinstance(e, Call) and e.callee in functions:
                uncorked |= _uncorks(e, functions[e.callee])
            elif isinstance(e, Recv) and e.conn in uncorked:
                found.add(e.conn)
    return found


def _uncorks(call: Call, callee: Function) -> set[str]:
    """The connections a call gives `callee` that it turns TCP_CORK off on."""
    return {arg for e in walk(callee.body) if isinstance(e, SetOption) and e.option == "cork" and e.value is False
            for arg in (passed(call, callee, e.conn, call.args),) if arg is not None}
