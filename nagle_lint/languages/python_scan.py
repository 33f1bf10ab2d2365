"""Python's byte scan: socket and stream sends, and where a function's text lies.
Its words and patterns are derived from the Python catalogue."""

from __future__ import annotations

import keyword
import os
import re
from dataclasses import replace
from functools import cached_property, lru_cache
from itertools import chain

from ..model import lineage
from .python_catalogue import PYTHON
from .scan import WORD_BYTES, AnyOf, Scanner, escaped, stems

DEFINING = (b"def", b"class")  # the keywords that start a definition
_INDENT = re.compile(rb"[ \t\f]*")
# A line that starts a definition (`def`, `async def` or `class`), and the name it defines.
_DEF_LINE = re.compile(rb"([ \t\f]*)(?:(?:async[ \t]+)?def|class)[ \t]")
_DEF_NAME = re.compile(rb"[ \t\f]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w*)")
_CLASS = re.compile(rb"class[ \t]+(\w+)[ \t]*\(([^)]*)\)")  # led by its keyword: found fast
_NOT_BEFORE_A_CALL = WORD_BYTES | frozenset(b".")  # a call of a longer name, or through an attribute
_AT_MARGIN = re.compile(rb"(?:async[ \t]+)?")  # what may stand before a module-level `def` on its line
# What a file nested over 100 levels deep has: a line indented 100
# characters, or a tab in an indentation (a tab counts up to 8, so 13
# characters can be 100 levels).  Each pattern looks at the first line, or
# after a newline: led by the newline, it is searched fast (`(?m)^` is
# tried at every position).
_DEEP = (re.compile(rb"[ \t\f]{100}|[ \f]*\t"), re.compile(rb"\n(?:[ \t\f]{100}|[ \f]*\t)"))


def class_statements(data: bytes):
    """(name, its bases, where it starts) of each class statement with
    bases, as written: a base (`mod.Base`) by its last name."""
    for m in _CLASS.finditer(data):
        line = data.rfind(b"\n", 0, m.start()) + 1
        if _INDENT.fullmatch(data, line, m.start()):
            bases = (b.strip().rsplit(b".", 1)[-1].decode("utf-8", "replace") for b in m.group(2).split(b","))
            yield m.group(1).decode(), tuple(b for b in bases if b), m.start()


def line_led(pattern: re.Pattern, data: bytes, pos: int = 0, endpos: int | None = None, indented: bool = False):
    """The matches of `pattern` that only blanks precede on their line (one at least where
    `indented`): those of the pattern led by `(?m)^[ \t]*` (`^[ \t]+`), each in full from
    its line's start at `pos` or later.  The pattern is led by a literal, which the regex
    engine finds fast: one led by `^` is tried at every byte (four times slower)."""
    end = len(data) if endpos is None else endpos
    while (m := pattern.search(data, pos, end)) is not None:
        line = data.rfind(b"\n", 0, m.start()) + 1
        if line >= pos and not data[line:m.start()].strip(b" \t") and (line < m.start() or not indented):
            yield m
            pos = m.end()
        else:
            pos = m.start() + 1


def kept_fields(data: bytes, start: int, end: int) -> set[str]:
    """The fields that the text between `start` and `end` (a class's) sets to a parameter
    of one of its methods (`self.dest = dest`): an object a caller gives is kept there."""
    kept = {(m.group(1), m.group(2)) for m in line_led(_KEPT, data, start, end, indented=True) if m.group(2) != b"self"}
    if not kept:
        return set()
    params = set().union(*(_parameters(sig.group(1)) for sig in _SIGNATURE.finditer(data, start, end)))
    return {field.decode() for field, value in kept if value in params}


@lru_cache(maxsize=16)  # the same functions that send, asked of every file of a round
def _kept_calls(effects: frozenset[str]) -> re.Pattern | None:
    """A pattern of a call, on a field of self, of a method named as one of `effects`' methods
    (`self.dest.write_frame(`; group 1: the field); None where none is a method."""
    methods = sorted({n.rpartition(".")[2].encode() for n in effects if "." in n})
    return re.compile(rb"self\.(\w+)\.(?:%s)[ \t]*\(" % b"|".join(map(re.escape, methods))) if methods else None


def _made_fields(data: bytes, start: int, end: int, effects: frozenset[str]) -> set[str]:
    """The fields that the text between `start` and `end` (a class's) sets to an object of a
    class with a method among `effects` (`self.conn = Connection(sock)`, `self.conn =
    proto.Connection(sock)`): the class's methods call that object's."""
    classes = {n.rpartition(".")[0].rpartition(".")[2].encode() for n in effects if "." in n}
    return {m.group(1).decode() for m in _MADE.finditer(data, start, end) if m.group(2) in classes}


def named_fields(data: bytes) -> set[str]:
    """The fields the file sets to a plain name anywhere (`self.dest = dest`): those that may
    keep what a parameter gives (see `kept_fields`, which tells a class's for sure)."""
    return {m.group(1).decode() for m in line_led(_KEPT, data, indented=True) if m.group(2) not in _NOT_GIVEN}


_NOT_GIVEN = frozenset({b"self", b"None", b"True", b"False"})
# `self.dest = dest` on a line of its own, indented (see `line_led`).
_KEPT = re.compile(rb"(?m)self\.(\w+)[ \t]*=[ \t]*(\w+)[ \t]*(?:#.*)?$")
_SIGNATURE = re.compile(rb"\bdef[ \t]+\w+[ \t]*\(([^)]*)\)")
# `self.conn = Connection(` (or `proto.Connection(`): group 1 the field, group 2 the class.
_MADE = re.compile(rb"self\.(\w+)[ \t]*=[ \t]*(?:\w+\.)*(\w+)[ \t]*\(")


def _parameters(listed: bytes) -> set[bytes]:
    return {p.split(b"=")[0].split(b":")[0].strip().lstrip(b"*") for p in listed.split(b",")}


def class_end(data: bytes, start: int) -> int:
    """Where the text of the class starting at `start` ends: at the next
    definition indented no deeper."""
    line = data.rfind(b"\n", 0, start) + 1
    return _definition_below(data, data.find(b"\n", start) + 1 or len(data), _width(data[line:start]))


def _width(indent: bytes) -> int:
    """An indentation's width as Python's tokenizer counts it: a tab to the
    next multiple of 8, a form feed back to 0."""
    if b"\t" not in indent and b"\f" not in indent:
        return len(indent)
    width = 0
    for ch in indent:
        width = 0 if ch == 12 else (width // 8 + 1) * 8 if ch == 9 else width + 1
    return width


def _enclosing_spans(data: bytes, positions):
    """For each position, a byte span holding the whole text of the function
    the position is in: from the nearest `def` (or `class`) above it indented
    less than its line, to the next one indented no deeper.  Code outside any
    definition gets the whole file (module-level code is one function).

    Found by looking up and down from each position for the keywords (a
    file asks about few positions: finding all its definitions first costs
    more); the same spans as all its definitions give."""
    for pos in positions:
        line = data.rfind(b"\n", 0, pos) + 1
        indent = _width(_INDENT.match(data, line, pos).group())
        above = _definition_above(data, pos, indent)
        if above is None:
            yield 0, len(data)
        else:
            # A definition between the one above and the position is indented
            # deeper than the position's line: the look down starts at that line.
            yield above[0], _definition_below(data, line, above[1])


_YIELD = re.compile(rb"yield\b")  # led by its literal: found fast


def generators(data: bytes) -> set[str]:
    """The qualified names of the file's generator functions: those whose own
    text holds a `yield` (not in a comment).  Once a yield tells a function,
    the rest of its text is passed over (a generator nested in a generator
    is not told)."""
    found, pos = set(), 0
    while (m := _YIELD.search(data, pos)) is not None:
        pos = m.end()
        line = data.rfind(b"\n", 0, m.start()) + 1
        if m.start() and data[m.start() - 1] in WORD_BYTES or b"#" in data[line:m.start()]:
            continue
        name = definition_at(data, m.start())
        if name is not None:
            found.add(name)
            start, width = _definition_above(data, m.start(), _width(_INDENT.match(data, line, m.start()).group()))
            pos = max(pos, _definition_below(data, data.find(b"\n", m.start()) + 1 or len(data), width))
    return found


def definition_at(data: bytes, pos: int) -> str | None:
    """The qualified name (`Class.method`, `outer.inner`) of the definition
    whose text holds `pos`, as the frontend names its functions; None at
    module level."""
    names, line = [], data.rfind(b"\n", 0, pos) + 1
    indent = _width(_INDENT.match(data, line, pos).group())
    while (above := _definition_above(data, line, indent)) is not None:
        line, indent = above
        names.append(_DEF_NAME.match(data, line).group(1).decode("utf-8", "replace"))
    return ".".join(reversed(names)) or None


def _definition_line(data: bytes, line: int) -> int | None:
    """The indentation width of the definition the line at `line` starts, if it starts one."""
    m = _DEF_LINE.match(data, line)
    return _width(m.group(1)) if m else None


def _definition_above(data: bytes, pos: int, indent: int):
    """(start, width) of the nearest definition line starting before `pos`
    indented less than `indent`, or None."""
    end = pos
    while True:
        at = max(data.rfind(b"def", 0, end), data.rfind(b"class", 0, end))
        if at < 0:
            return None
        line = data.rfind(b"\n", 0, at) + 1
        width = _definition_line(data, line)
        if width is not None and width < indent:
            return line, width
        end = line


def _definition_below(data: bytes, start: int, width: int) -> int:
    """The start of the first definition line at or after the line start
    `start` indented no deeper than `width`, else the end of the file."""
    while True:
        found = [at for at in (data.find(b"def", start), data.find(b"class", start)) if at >= 0]
        if not found:
            return len(data)
        at = min(found)
        line = data.rfind(b"\n", 0, at) + 1
        if line >= start:
            found_width = _definition_line(data, line)
            if found_width is not None and found_width <= width:
                return line
        start = data.find(b"\n", at) + 1
        if not start:
            return len(data)


class PythonScanner(Scanner):
    catalogue = PYTHON

    def code_only(self, data: bytes) -> bytes:
        return _COMMENTS_AND_STRINGS.sub(lambda m: b" " * len(m.group()), data)
    definition_before = re.compile(rb"\b(?:def|class)\s+\Z")
    definition_after = re.compile(rb"")
    declaration_words = DEFINING
    constructor = "__init__"
    made_runs_constructors = True

    @staticmethod
    def last_statement(tail: bytes) -> bytes:
        """The last line of a function's text."""
        body = tail.rstrip()
        return body[body.rfind(b"\n") + 1:]

    # -- derived from the catalogue ------------------------------------------
    # Each pattern is searched on its own: a regex that starts with a literal
    # is found fast, an alternation is tried at every position.

    @cached_property
    def named_setters(self) -> tuple[bytes, ...]:
        """The option setters named for the option they set (Twisted's `setTcpNoDelay`,
        unlike `setsockopt`): a file calling one sets it without naming TCP_NODELAY."""
        return tuple(s.encode() for s in sorted(self.catalogue.option_setters) if "nodelay" in s.lower())

    @cached_property
    def nodelay_words(self) -> tuple[bytes, ...]:
        return (b"TCP_NODELAY", *self.named_setters)

    def may_find(self, data: bytes, min_confidence: str = "medium", nodelay_by_design: bool = True) -> bool:
        return any(w in data for w in self.named_setters) or super().may_find(data, min_confidence, nodelay_by_design)

    @cached_property
    def stream_words(self) -> tuple[bytes, ...]:
        """Words that make `.write()`/`.read()` events: the file has socket streams."""
        return _encoded(self.catalogue.stream_words)

    @cached_property
    def accept_call(self):
        # The lowering makes a connection medium-sure where it is accepted, or
        # where a method only sockets have is called on it: calls, not words
        # ("acceptable" in a mail protocol's text is not evidence).
        return AnyOf(*(_call(w) for w in sorted(self.catalogue.accepts)))

    @cached_property
    def socket_only_calls(self):
        # A method that is an evidence word already needs no look for its call.
        c = self.catalogue
        words = set(c.evidence_words)
        own = set().union(*(lib.own_methods for lib in c.libraries))
        return tuple(re.compile(_call(w)) for w in sorted(c.socket_only | own) if w not in words)

    @cached_property
    def read_calls(self):
        """A file that reads may matter through the functions it calls: any
        method named like a read (`read_packet`) may be one."""
        c = self.catalogue
        return re.compile(_method(escaped(stems(c.reads | c.stream_reads), rb"\w*") + escaped(c.library_methods("read"))))

    @cached_property
    def send_calls(self):
        c = self.catalogue
        return re.compile(_method(escaped(c.all_sends | c.stream_writes | self.library_sends)))

    @cached_property
    def socket_sends(self):
        return re.compile(_method(escaped(self.catalogue.all_sends | self.library_sends)))

    @cached_property
    def library_sends(self) -> frozenset[str]:
        """Library methods that put bytes on the wire."""
        return self.catalogue.library_methods("send", "flush")

    @cached_property
    def events(self):
        """A call that may lower to an event, or a word that makes a
        connection: a function without one is not worth lowering."""
        c = self.catalogue
        calls = _method(escaped(stems(c.all_sends | c.reads), rb"\w*")
                        + escaped(c.closes | c.shutdowns | c.option_setters | set(c.wrappers) | c.accepts
                                 | c.handshakes | c.library_methods()))
        # Option names by their common start (TCP_): each word is a pass over the file.
        options = os.path.commonprefix(sorted(c.options)) if c.options else ""
        # A descriptor's call (`os.write(fd, ...)`) by its whole dotted name, given a name (a
        # connection's descriptor is one; a number, or `%d` in a script's text, is none).
        return AnyOf(calls, *escaped(c.tcp_makers | ({options} if len(options) >= 4 else set(c.options))),
                     *(_call(name) + rb"\s*[A-Za-z_]" for name in sorted(c.descriptor_calls)))

    @cached_property
    def stream_events(self):
        """File-like calls are events only on stream wrappers (see `stream_words`)."""
        c = self.catalogue
        return self.events.extended(_method(escaped(stems(c.stream_writes | c.stream_reads), rb"\w*") + escaped(c.flushes)))

    def has_evidence(self, data: bytes) -> bool:
        return self.own_connection(data) or any(p.search(data) for p in self.socket_only_calls)

    def talks(self, data: bytes) -> bool:
        # A read, or a connection made or accepted.  Of the other methods
        # only sockets have, a send lets the file through the byte scan (it is
        # never asked), and setting an option or shutting down is not talking.
        return bool(self.read_calls.search(data)) or self.own_connection(data)

    def own_connection(self, data: bytes) -> bool:
        """A connection the file makes (the words) or accepts."""
        return super().has_evidence(data) or bool(self.accept_call.search(data))

    def with_events(self, data: bytes, names) -> set[str]:
        # A definition's text runs from its line to the next definition
        # indented no deeper (as `_enclosing_spans` reads it: it may hold
        # module-level code after it too).  A name whose definition is not
        # found so is kept.  A class is worth it also where a base class of
        # the file is: its constructor may run the base's
        # (`super().__init__(sock)`) and reach the events there.
        events, worth, seen = self.events_in(data), set(), set()
        bases: dict[str, tuple[str, ...]] = {}
        for name, found, _ in class_statements(data):
            bases.setdefault(name, found)
        for name in names:
            for each in lineage(bases, name):
                if self._has_events(data, events, each):
                    worth.add(name)
                    break
                seen.update((name,) if each == name and self._defined(data, each) else ())
        return worth | (set(names) - seen)

    def kept_starts(self, data: bytes, spans, effects) -> set[str]:
        called = _kept_calls(effects)
        if called is None or not called.search(data):
            return set()
        by_class: dict[str, list[tuple[str, int, int]]] = {}
        for q, a, b, cls in spans:
            if cls is not None:
                by_class.setdefault(cls, []).append((q, a, b))
        found = set()
        for methods in by_class.values():
            calling = {q: fields for q, a, b in methods
                       if (fields := {m.group(1).decode() for m in called.finditer(data, a, b)})}
            if calling:
                kept = set().union(*(kept_fields(data, a, b) | _made_fields(data, a, b, effects) for _, a, b in methods))
                found.update(q for q, fields in calling.items() if not fields.isdisjoint(kept))
        return found

    def on_kept(self, data: bytes, names, effects) -> set[str]:
        called = _kept_calls(effects)
        if called is None or not called.search(data):  # most files make no such call
            return set()
        found = set()
        for name in names:
            for line, width, after in self._definitions(data, name):
                end = _definition_below(data, after, width) if after else len(data)
                fields = {m.group(1).decode() for m in called.finditer(data, line, end)}
                if fields and not fields.isdisjoint(kept_fields(data, line, end)):
                    found.add(name)
                    break
        return found

    @staticmethod
    def _definitions(data: bytes, name: str):
        """(line start, indentation width, end of the first line) of each definition of `name`."""
        # One pattern per keyword, each led by its literal (an alternation is tried at every byte).
        after = rb"[ \t]+" + re.escape(name.encode()) + rb"(?!\w)"
        for m in chain(*(re.finditer(word + after, data) for word in DEFINING)):
            line = data.rfind(b"\n", 0, m.start()) + 1
            width, named = _definition_line(data, line), _DEF_NAME.match(data, line)
            if width is not None and named.group(1) == name.encode():  # the definition its line starts
                yield line, width, data.find(b"\n", m.end()) + 1

    def _defined(self, data: bytes, name: str) -> bool:
        return next(self._definitions(data, name), None) is not None

    def _has_events(self, data: bytes, events, name: str) -> bool:
        """Whether a definition of `name` has an event in its text."""
        return any(events.found(data, line, _definition_below(data, after, width) if after else len(data))
                   for line, width, after in self._definitions(data, name))

    def followed(self, data: bytes, names) -> set[str]:
        # A call of a bare name (`f(...)`, `Client(...)`) is followed by its
        # name; one made through an attribute (`mod.f(...)`) only on an
        # object made in the file by a bare call of its class, or on self.
        return {n for n in names if any(m.start() == 0 or data[m.start() - 1] not in _NOT_BEFORE_A_CALL
                                        for m in re.finditer(re.escape(n.encode()) + rb"\s*\(", data))}

    def top_level(self, data: bytes, names) -> set[str]:
        # A `def` at the margin (not a method, not nested): its name is the function's qualified name.
        return {n for n in names if any(_AT_MARGIN.fullmatch(data, data.rfind(b"\n", 0, m.start()) + 1, m.start())
                                        for m in re.finditer(rb"def[ \t]+" + re.escape(n.encode()) + rb"[ \t]*\(", data))}

    def check_nesting(self, data: bytes) -> None:
        """Python nested more than 100 indentation levels deep (CPython's own
        limit) is refused: past about 500 levels the grammar's scanner state
        overflows and tree-sitter can crash the process."""
        if not (_DEEP[0].match(data) or _DEEP[1].search(data)):
            return  # no line is indented 100 characters, nor with a tab: no deeper than 100 levels
        depth, stack = 0, [0]
        for indent in re.findall(rb"(?m)^([ \t\f]*)[^ \t\f\r\n#]", data):
            width = _width(indent)
            if width > stack[-1]:
                stack.append(width)
                depth = max(depth, len(stack) - 1)
                if depth > 100:
                    raise RecursionError("indentation nested more than 100 levels deep (Python's own limit)")
            else:
                while width < stack[-1]:
                    stack.pop()

    def class_bases(self, data: bytes, classes) -> dict[str, tuple[str, ...]]:
        # A nested class is known by its qualified name.
        by_name = {c.rsplit(".", 1)[-1]: c for c in classes}
        found = {}
        for name, bases, _ in class_statements(data):
            if name in by_name:
                found.setdefault(by_name[name], tuple(by_name[b] for b in bases if b in by_name and b != name))
        return found

    @cached_property
    def library_words(self) -> tuple[bytes, ...]:
        """What a file that uses one of the catalogue's libraries names: a
        maker (`HTTPConnection`), or a method only its objects have."""
        c = self.catalogue
        return _encoded(sorted({m.rsplit(".", 1)[-1] for lib in c.libraries for m in lib.makers}
                               | set().union(*(lib.own_methods for lib in c.libraries))))

    @cached_property
    def without_libraries(self) -> "PythonScanner":
        """This scan for a file that names none of the `library_words`: the
        lowering makes a library's call of no method there (`x.request()` is
        one only on an object the library made, or that one of its own
        methods is called on)."""
        scan = PythonScanner()
        scan.catalogue = replace(self.catalogue, libraries=())
        return scan

    def _scan_of(self, data: bytes) -> "PythonScanner":
        if not self.catalogue.libraries or any(w in data for w in self.library_words):
            return self
        return self.without_libraries

    def events_in(self, data: bytes):
        if (scan := self._scan_of(data)) is not self:
            return scan.events_in(data)
        events = self.stream_events if any(w in data for w in self.stream_words) else self.events
        # A name or field a connection's send or read is kept in (`self._write =
        # self.sock.sendall`): calling it is that event, and keeping it sets a field.
        kept = self._kept(data)
        events = events.extended(_kept_use(kept)) if kept else events
        passed = self.passed_to(data)
        return events.extended(_definition_of(passed)) if passed else events

    def starts_in(self, data: bytes):
        if (scan := self._scan_of(data)) is not self:
            return scan.starts_in(data)
        sends = {name for name, method in self._kept(data).items() if method in self.send_methods}
        starts = self.with_option_tables(self.sends_or_options, data)
        starts = starts.extended(_kept_use(sends)) if sends else starts
        passed = self.passed_to(data)
        return starts.extended(_definition_of(passed)) if passed else starts

    def _may_send(self, data: bytes) -> bool:
        """Whether the file calls a method that sends (a library's too), or takes a
        connection's method as a value (kept in a name, or passed on): without
        either, `sends_in` finds no send, whatever the libraries."""
        return bool(self.send_calls.search(data) or self.taken_events.search(data)
                    or any(taken.search(data) for taken, _ in self.taken_descriptor_calls))

    @lru_cache(maxsize=4)  # the byte scan and the choice of functions to lower ask of the same file
    def passed_to(self, data: bytes) -> frozenset[bytes]:
        """The functions a connection's send is passed to (`relay(sock.sendall, data)`):
        calling their parameter sends.  The sends taken as values are found first
        (led by their dot: fast), then the bare-name call open before them on their line."""
        found = set()
        for m in self.taken_sends.finditer(data):
            call = _CALL_OPEN.search(data, data.rfind(b"\n", 0, m.start()) + 1, m.start())
            if call is not None and not keyword.iskeyword(call.group(1).decode()):  # `in (sock.send, ...)`
                found.add(call.group(1))
        return frozenset(found)

    @cached_property
    def taken_socket_sends(self):
        """A socket's own send taken as a value (`.sendall` with no call), not a file-like `.write`."""
        return re.compile(rb"\.(?:" + b"|".join(escaped(self.catalogue.all_sends)) + rb")" + _TAKEN)

    @cached_property
    def taken_sends(self):
        """A connection's send taken as a value (`.sendall` with no call)."""
        c = self.catalogue
        return re.compile(rb"\.(?:" + b"|".join(escaped(c.sends | c.stream_writes)) + rb")" + _TAKEN)

    @lru_cache(maxsize=4)  # as `passed_to`: shared, never changed
    def _kept(self, data: bytes) -> dict[bytes, bytes]:
        """Name -> the method of a connection kept in it (`self._write = self.sock.sendall`):
        the methods taken as values are found first (led by their dot: fast), then
        the assignment their line starts with."""
        kept = {}
        # A file-like method (`.write`) counts where its call `.write(` does (see `sends_in`): in a
        # file with socket streams, or in a function with a socket event too (not Twisted's
        # `_w = self.transport.write`, which the lowering makes no send of).
        streams = None  # looked for where a file-like method is kept: most files keep none
        for m in self.taken_events.finditer(data):
            held = _KEPT_IN.fullmatch(data, data.rfind(b"\n", 0, m.start()) + 1, m.start())
            if held is None:
                continue
            file_like = m.group(1) in self.stream_methods
            if file_like and streams is None:
                streams = any(w in data for w in self.stream_words)
            if not file_like or streams or self.events.found(data, *next(_enclosing_spans(data, [m.start()]))):
                kept[held.group(1)] = m.group(1)
        kept.update(self._kept_as_defaults(data))
        return kept

    def _kept_as_defaults(self, data: bytes) -> dict[bytes, bytes]:
        """A descriptor's call as a parameter's default (`write=os.write`): that call's event."""
        kept = {}
        for taken, method in self.taken_descriptor_calls:
            for m in taken.finditer(data):
                held = _DEFAULT_OF.search(data, max(0, m.start() - 80), m.start())
                if held is not None:
                    kept[held.group(1)] = method
        return kept

    @cached_property
    def taken_descriptor_calls(self) -> tuple:
        """(a descriptor's call taken as a value, the connection's method it is), each led by its literal."""
        return tuple((re.compile(re.escape(name.encode()) + _TAKEN), method.encode())
                     for name, method in sorted(self.catalogue.descriptor_calls.items()))

    @cached_property
    def taken_events(self):
        """A connection's send or read taken as a value (`.sendall` with no call): group 1 the method."""
        c = self.catalogue
        return re.compile(rb"\.(" + b"|".join(escaped(c.all_sends | c.reads | c.stream_writes | c.stream_reads)) + rb")"
                          + _TAKEN)

    @cached_property
    def stream_methods(self) -> frozenset[bytes]:
        c = self.catalogue
        return frozenset(n.encode() for n in c.stream_writes | c.stream_reads)

    @cached_property
    def send_methods(self) -> frozenset[bytes]:
        c = self.catalogue
        return frozenset(n.encode() for n in c.all_sends | c.stream_writes)

    def sends_in(self, data: bytes, min_confidence: str = "medium") -> bool:
        if self.catalogue.libraries and not self._may_send(data):
            return False  # as found with the libraries' methods or without: which is not looked for
        if (scan := self._scan_of(data)) is not self:
            return scan.sends_in(data, min_confidence)
        first = self.send_calls.search(data)
        if first is None:
            return self._keeps_send(data) or bool(self.passed_to(data))
        # A socket's send kept in a name (`self._write = self.sock.sendall`) sends where it is
        # called, whatever the file's `.write()` calls of other objects are.
        return self._sends_by_call(data, first) or bool(self.taken_socket_sends.search(data)) and self._keeps_send(data)

    def _keeps_send(self, data: bytes) -> bool:
        return any(method in self.send_methods for method in self._kept(data).values())

    def _sends_by_call(self, data: bytes, first) -> bool:
        """Whether a send call of the file (the first at `first`) may be lowered as a send."""
        if self.socket_sends.search(data, first.start()):
            return True
        if any(w in data for w in self.stream_words):
            return True
        # Elsewhere `.write()` is lowered only in a function that has a socket
        # event too: look for one whose text has both.
        if not self.events.found(data):
            return False
        writes = [m.start() for m in self.send_calls.finditer(data)]
        looked = set()
        for span in _enclosing_spans(data, writes):
            if span not in looked:
                looked.add(span)
                if self.events.found(data, *span):
                    return True
        return False


_OPEN = rb"\s*\("


def _encoded(words) -> tuple[bytes, ...]:
    return tuple(w.encode() for w in words)


def _call(name: str) -> bytes:
    return re.escape(name.encode()) + _OPEN


# `name = obj.path` or `self.name = obj.path` before a method taken as a value: group 1 the
# name as written (`self.name`), which the lowering knows it by.
_KEPT_IN = re.compile(rb"[ \t]*((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)[ \t]*=[ \t]*[A-Za-z_][\w.]*")
# A bare-name call left open before a value given to it (`relay(sock` of `relay(sock.sendall, data)`):
# group 1 the name.
_CALL_OPEN = re.compile(rb"(?<![\w.])([A-Za-z_]\w*)[ \t]*\([^()\n]*?[A-Za-z_][\w.]*\Z")
# The name of a parameter (or a keyword argument) a value is the default of, before the value.
_DEFAULT_OF = re.compile(rb"([A-Za-z_]\w*)[ \t]*=[ \t]*\Z")
# A method taken as a value where no call follows (`self._write = sock.sendall`,
# `callback=sock.send,`): it is called later by the name it is kept in.
_TAKEN = rb"[ \t]*[\r\n#,)\]]"


def _kept_use(names) -> bytes:
    """A call of one of the names a connection's method is kept in, or the keeping: the
    name as written there (`self._write(`, not another object's `x._write(`)."""
    return rb"(?<![\w.])(?:" + b"|".join(re.escape(n) for n in sorted(names)) + rb")[ \t]*(?:\(|=(?!=))"


def _definition_of(names) -> bytes:
    """The definition of one of the functions `names`."""
    return rb"def[ \t]+(?:" + b"|".join(re.escape(n) for n in sorted(names)) + rb")[ \t]*\("


def _method(alternatives) -> bytes:
    """A call of a method one of the `alternatives` (regexes) names."""
    return rb"\.(?:" + b"|".join(alternatives) + b")" + _OPEN


# Comments, and string literals (triple-quoted first): never code.
_COMMENTS_AND_STRINGS = re.compile(rb'#[^\n]*|"""(?:\\.|[^\\])*?"""|\'\'\'(?:\\.|[^\\])*?\'\'\''
                                   rb'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
