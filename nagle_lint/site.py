"""Where a finding is and how sure it is: the little of the model that a
run served from the cache needs (so that it does not load the rest)."""

from __future__ import annotations

from collections import namedtuple

# How sure we are that a connection is a TCP socket.  Ordered weakest first.
CONFIDENCES = ("low", "medium", "high")


def lower(confidence: str) -> str:
    return CONFIDENCES[max(0, CONFIDENCES.index(confidence) - 1)]


class Site(namedtuple("Site", "line col end_line end_col")):
    """A source range: 1-based lines, 1-based columns counted in characters.
    A named tuple (immutable, ordered, hashable): no dataclasses to load."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"
