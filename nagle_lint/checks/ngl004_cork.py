"""NGL004 cork-not-released: data left in a cork or behind MSG_MORE."""

from __future__ import annotations

from ..findings import Finding, Step
from ..fixes import DROP_MORE, UNCORK, Proposal
from ..model import FileModel
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
    for h in analysis.held:
        anchor = h.cork or h.more
        if anchor is None:
            continue
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
