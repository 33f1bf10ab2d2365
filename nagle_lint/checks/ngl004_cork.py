"""NGL004 cork-not-released: data left in a cork or behind MSG_MORE."""

from __future__ import annotations

from ..findings import Finding, Step
from ..model import FileModel
from .flow import Analysis

RULE = "NGL004"

MESSAGE_CORK = (
    "'{conn}' is corked here and data sent at line {held} is still corked {when}: the kernel holds it up to "
    "200 ms; turn the cork off after the last piece of the message"
)
MESSAGE_MORE = (
    "MSG_MORE on the last send on '{conn}' before {when}: the kernel holds it up to 200 ms waiting for more; "
    "drop MSG_MORE from the last piece of the message"
)


def check(model: FileModel, analysis: Analysis):
    for h in analysis.held:
        when = f"when the reply is read at line {h.at.site.line}" if h.at_read else "when the function returns"
        if h.cork is not None:
            site, message = h.cork.site, MESSAGE_CORK.format(conn=h.info.name, held=h.held.site.line, when=when)
            fix = "turn TCP_CORK off (setsockopt ..., 0) once the whole message is written"
        elif h.more is not None:
            before = f"the read at line {h.at.site.line}" if h.at_read else "the function returns"
            site, message = h.more.site, MESSAGE_MORE.format(conn=h.info.name, when=before)
            fix = "send the last piece without MSG_MORE"
        else:
            continue
        steps = [Step(h.held.site, "data held")]
        if h.at_read:
            steps.append(Step(h.at.site, "the read"))
        yield Finding(
            rule=RULE, path=model.path, site=site, level="warning", confidence=h.info.confidence,
            message=message, related=tuple(steps), flow=(Step(site, "held from here"), *steps), fix=fix,
        )
