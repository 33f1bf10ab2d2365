"""Java's byte scan: stream, writer and channel writes, and socket types."""

from __future__ import annotations

import re

from .scan import WORD_BYTES, Scanner, whole_words


_ANGLES_AND_ENDS = re.compile(rb"[<>;{}]")


class JavaScanner(Scanner):
    evidence_words = (b"Socket", b"Channel", b"OutputStream")
    # ... as a type's name (not part of a method's or of any class's: a
    # DecodeChannel of the project's own is no socket), or their packages
    packages = (b"getOutputStream", b"java.nio.channels", b"io.netty")

    nodelay_words = (b"TcpNoDelay", b"TCP_NODELAY")
    nodelay_setter = None
    definition_before = re.compile(rb"\b(?:class|interface|record|enum)\s+\Z")
    definition_after = re.compile(rb"")
    declaration_words = (b"class", b"interface", b"record", b"enum")
    read_calls = re.compile(rb"\.(?:read\w*|next\w*)\s*\(")  # a file that reads may matter through the functions it calls
    send_calls = re.compile(rb"\.(?:write\w*|print\w*|format|append)\s*\(")
    events = re.compile(rb"\b(?:write\w*|print\w*|format|append|read\w*|next\w*|hasNext\w*|flush|close|shutdownOutput|"
                        rb"getOutputStream|getInputStream|accept|setTcpNoDelay|setOption|option|childOption|socket|"
                        rb"createSocket|open)\s*\(|new\s+\w*(?:Socket|Stream|Writer|Reader|Scanner)")

    # Open `<`s in one statement past which a syntax error makes the
    # grammar's error recovery take time and memory that grow with their
    # square, in steps too long for the time budget to stop (1,000: 13 ms
    # and 10 MB; 12,000, a 24 kB file: 1.3 s and 1.2 GB; 24,000 crashed the
    # process out of 6 GB): no written code comes near.
    MAX_OPEN_ANGLES = 1000

    def check_nesting(self, data: bytes) -> None:
        """Refuse a file whose statements hold too many `<` left open to parse
        safely (see MAX_OPEN_ANGLES); a `>` closes one, a `;` or a brace
        ends the statement."""
        if data.count(b"<") <= self.MAX_OPEN_ANGLES:
            return
        depth = 0
        for m in _ANGLES_AND_ENDS.finditer(data):
            c = m.group()
            if c == b"<":
                depth += 1
                if depth > self.MAX_OPEN_ANGLES:
                    raise RecursionError(f"more than {self.MAX_OPEN_ANGLES} '<' open in one statement "
                                         "(too ambiguous to parse safely)")
            elif c == b">":
                depth = max(0, depth - 1)
            else:
                depth = 0

    def sends_in(self, data: bytes, min_confidence: str = "medium") -> bool:
        # A write is a send only on what the file types as a stream, writer,
        # socket or channel (or gets from getOutputStream()): a file that
        # names none only appends to strings.
        return any(w in data for w in (b"Stream", b"Writer", b"Socket", b"Channel")) and bool(self.send_calls.search(data))

    def has_evidence(self, data: bytes) -> bool:
        if not any(w in data for w in self.evidence_words):
            return False
        if any(w in data for w in self.packages):
            return True
        for word in (b"Socket", b"OutputStream"):  # the end of a type's name: `Socket`, `SSLSocket`
            at = data.find(word)
            while at >= 0:
                end = at + len(word)
                if end == len(data) or data[end] not in WORD_BYTES:
                    start = at
                    while start and data[start - 1] in WORD_BYTES:
                        start -= 1
                    if start == at or 65 <= data[start] <= 90:  # A-Z
                        return True
                at = data.find(word, end)
        return any(True for w in (b"Channel", b"ChannelHandlerContext") for _ in whole_words(data, w))
