"""Fixes: what a check proposes, in the model's terms, and what a frontend
makes of it, as edits of the source.

A check knows sites, not syntax: it proposes to `join` the sends at some
sites (one message, sent before the reads at others), to `drop-more` (the
MSG_MORE flag of the send at a site) or to `uncork` (turn a cork off after
the sends it holds).  The frontend of the file's language
renders the proposal in its own idiom (one `sendall(a + b)`, one `writev`,
a buffered stream flushed before the read) or declines when the code is
not of a shape it can rewrite; it says whether its edit is safe (the same
bytes reach the peer in the same order, errors behave the same) or unsafe.
"""

from __future__ import annotations

from collections import namedtuple

SAFE, UNSAFE = "safe", "unsafe"
JOIN, DROP_MORE, UNCORK = "join", "drop-more", "uncork"


class Proposal(namedtuple("Proposal", "kind sites")):
    """`kind`: JOIN (the sends at `sites`, in order, leave as one message;
    where they are flushes of a buffered stream, what is written up to the
    second), DROP_MORE (the send at `sites[0]` goes without MSG_MORE) or
    UNCORK (the cork set at `sites[0]` is turned off where the run of sends
    that starts at `sites[1]` ends)."""

    __slots__ = ()


class Edit(namedtuple("Edit", "start end text")):
    """Replace bytes [start, end) of the file's UTF-8 text with `text`."""

    __slots__ = ()


class Fix(namedtuple("Fix", "title applicability edits")):
    __slots__ = ()


def proposal_data(p: Proposal | None):
    return None if p is None else [p.kind, [list(s) for s in p.sites]]


def proposal_from(d) -> Proposal | None:
    from .site import Site

    return None if d is None else Proposal(d[0], tuple(Site(*s) for s in d[1]))


def render(path: str, data: bytes, findings, language: str | None = None) -> list:
    """[(finding, Fix)] for the findings of file `path` (its text `data`)
    that propose a fix its frontend can render."""
    from .languages import frontend, language_of

    proposing = [f for f in findings if f.proposal is not None]
    if not proposing:
        return []
    fe = frontend(language or language_of(path))
    fixes = fe.render(data, [f.proposal for f in proposing])
    return [(f, fix) for f, fix in zip(proposing, fixes) if fix is not None]


def overlaps(a: Edit, b: Edit) -> bool:
    """Two edits touch the same text (two insertions at one place count:
    their order would be a guess)."""
    return a.start < b.end and b.start < a.end or a.start == b.start


def apply(data: bytes, fixes: list[Fix], newline: bytes = b"\n") -> tuple[bytes, list[Fix]]:
    """(`data` with the fixes applied, those applied): each fix whole or not
    at all, none touching what an earlier one in the list changed (a later
    pass takes the others up again).  The edits' line breaks become `newline`,
    the file's."""
    taken: list[Edit] = []
    applied = []
    for fix in fixes:
        if any(overlaps(e, t) for e in fix.edits for t in taken):
            continue
        taken += fix.edits
        applied.append(fix)
    out, at = [], 0
    for e in sorted(taken, key=lambda e: (e.start, e.end)):
        out += [data[at:e.start], e.text.replace("\r\n", "\n").encode("utf-8").replace(b"\n", newline)]
        at = e.end
    out.append(data[at:])
    return b"".join(out), applied


# --- a file's bytes as the linter reads them, and back ----------------------


class Encoded(namedtuple("Encoded", "prefix codec newline")):
    """How a file's bytes were turned into the UTF-8 text that was linted:
    the byte-order mark dropped, the codec of a UTF-16/32 file, the line
    ending it uses (inserted lines get the same)."""

    __slots__ = ()


BOMS = ((b"\xef\xbb\xbf", None), (b"\xff\xfe\0\0", "utf-32-le"), (b"\0\0\xfe\xff", "utf-32-be"),
        (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


def decode(raw: bytes) -> tuple[bytes, Encoded]:
    """The text the linter reads (see runner._as_text), and how to go back."""
    prefix, codec = next(((mark, codec) for mark, codec in BOMS if raw.startswith(mark)), (b"", None))
    text = raw[len(prefix):]
    if codec is not None:
        text = text.decode(codec).encode("utf-8", "surrogatepass")
    newline = b"\r\n" if text.count(b"\r\n") * 2 > text.count(b"\n") else b"\n"
    return text, Encoded(prefix, codec, newline)


def encode(text: bytes, how: Encoded) -> bytes:
    if how.codec is not None:
        text = text.decode("utf-8", "surrogatepass").encode(how.codec, "surrogatepass")
    return how.prefix + text
