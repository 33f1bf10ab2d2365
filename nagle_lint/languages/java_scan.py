"""Java's byte scan: stream, writer and channel writes, and socket types.
Its words and patterns are derived from the Java catalogue."""

from __future__ import annotations

import re
from functools import cached_property, lru_cache

from .java_catalogue import CONVERSIONS, JAVA, JavaTypes, is_type
from .scan import OPTION_WORDS, WORD_BYTES, Scanner, stems, whole_words


def _calls(names, lead: bytes = rb"\.") -> bytes:
    """A pattern of calls of `names` (regexes, after `lead`)."""
    return lead + rb"(?:" + b"|".join(sorted(names, key=len, reverse=True)) + rb")\s*\("


def _escaped(names) -> list[bytes]:
    return [re.escape(n.encode()) for n in names]


def _prefixes(names) -> list[bytes]:
    """The names as regexes, a name that starts others for all of them
    (`write\\w*` for `write`, `writeInt`): a project's helpers named so
    (`writeFrame`) may send or read as well."""
    return [re.escape(n.encode()) + (rb"\w*" if any(o != n and o.startswith(n) for o in names) else b"")
            for n in sorted(stems(names))]


def _last_word(typ: str) -> str:
    """`BufferedOutputStream` -> `Stream`."""
    return re.findall(r"[A-Z][a-z0-9]*", typ)[-1]


_ANGLES_AND_ENDS = re.compile(rb"[<>;{}]")


class JavaScanner(Scanner):
    catalogue = JAVA

    def code_only(self, data: bytes) -> bytes:
        return code_only(data)

    nodelay_setter = None
    constructor = "<init>"
    definition_before = re.compile(rb"\b(?:class|interface|record|enum)\s+\Z")
    definition_after = re.compile(rb"")
    declaration_words = (b"class", b"interface", b"record", b"enum")

    # -- derived from the catalogue ------------------------------------------

    @cached_property
    def evidence_words(self) -> tuple[bytes, ...]:
        """Words whose presence is evidence, anywhere: the catalogue's own,
        the calls that give a socket's streams (`getOutputStream`) and a
        factory's call that makes one (`createSocket`).  (NIO's channels are
        named, `SocketChannel`: their package is no evidence of its own, nor
        is a stream's type, which the lowering makes a connection of only
        on a socket-like name, a test the byte scan makes apart.)"""
        c = self.catalogue
        return tuple(sorted(w.encode() for w in {*c.evidence_words, *(w for w in c.wrappers if w in c.socket_only),
                             *(m for m in c.tcp_makers if not is_type(m) and "." not in m)}))

    @cached_property
    def type_endings(self) -> tuple[bytes, ...]:
        """Names that are evidence as a type's name or its end (`Socket`,
        `SSLSocket`, a project's `WebSocket`): the catalogue's sockets and
        what its makers make (`SocketChannel.open`), each by the shortest of
        them it ends with."""
        c = self.catalogue
        types = c.socket_types | {m.split(".")[0] for m in c.tcp_makers if is_type(m.split(".")[0])}
        return tuple(sorted(t.encode() for t in types if not any(o != t and t.endswith(o) for o in types)))

    @cached_property
    def write_words(self) -> tuple[bytes, ...]:
        """Words one of which every type a write may be made on holds, the
        last of a name (`Stream`, `Writer`, `Socket`, `Channel`), unless the
        name holds another already (`ChannelHandlerContext`): a file that
        names none only appends to strings."""
        c = self.catalogue
        types = {t.split(".")[0] for t in {*c.socket_types, *c.stream_types, *c.framework_types, *c.wrappers,
                                           *c.tcp_makers}} - {""}
        types = {t for t in types if is_type(t)}
        last = {_last_word(t) for t in types}
        return tuple(sorted({_last_word(t).encode() for t in types
                             if not any(w in t for w in last - {_last_word(t)})}))

    @cached_property
    def nodelay_words(self) -> tuple[bytes, ...]:
        """The options' names, and the setters' named for one (`setTcpNoDelay`: `TcpNoDelay`)."""
        return tuple(sorted({n.removeprefix("set").encode() for n in self.catalogue.options}, reverse=True))

    @cached_property
    def read_calls(self) -> re.Pattern:
        # A file that reads may matter through the functions it calls; one that
        # writes may send.  Read and write helpers of the project's own
        # (`c.readResponse()`, `c.writeFrame()`) count as well as the catalogue's calls.
        return re.compile(_calls(_prefixes(self.catalogue.stream_reads)))

    @cached_property
    def send_calls(self) -> re.Pattern:
        return re.compile(_calls(_prefixes(self.catalogue.stream_writes)))

    @cached_property
    def events(self) -> "CallsOrNew":
        """Every call the lowering may make an event of (`channel()` gives what
        it is made on: the call made on that is the event), and the creations
        of connections, streams and what is none (a factory of one matters to
        its callers): `new` of a type named as the catalogue's connections and
        streams end (`new FrameStream(..)` may be one).  `events_in` leaves
        out the calls on what is no connection."""
        c = self.catalogue
        methods = {w for w, buffers in c.wrappers.items() if not is_type(w) and buffers is not None}
        makers = {m.rsplit(".", 1)[-1] for m in c.tcp_makers if not is_type(m)}
        names = (c.stream_writes | c.stream_reads | methods | c.shutdowns | c.accepts | c.closes | c.flushes
                 | c.option_setters | makers)
        endings = sorted({_last_word(t) for t in c.tcp_makers | set(c.stream_types) if is_type(t)})
        return CallsOrNew(names, rb"new\s+\w*(?:" + b"|".join(_escaped(endings)) + rb")")

    @cached_property
    def method_wrappers(self) -> frozenset[str]:
        """The methods that give a stream over the connection they are called on, or the connection."""
        return frozenset(w for w in self.catalogue.wrappers if not is_type(w))

    @cached_property
    def socket_makers(self) -> frozenset[str]:
        """The classes whose `new` makes a connection (`new Socket(host, port)`)."""
        return frozenset(m for m in self.catalogue.tcp_makers if is_type(m))

    @cached_property
    def types(self) -> JavaTypes:
        return JavaTypes(self.catalogue)

    @cached_property
    def always_events(self) -> tuple[bytes, ...]:
        """Calls that are events whatever they are made on: setting an option."""
        return tuple(n.encode() for n in self.catalogue.option_setters)

    def events_in(self, data: bytes) -> "FileEvents":
        return FileEvents(self.events, data, self)

    def kept_starts(self, data: bytes, spans, effects) -> set[str]:
        """The methods calling, on a field their class makes (`wire = new Wire(host)`, in a
        constructor or the field's declaration), a method of that class that sends
        (`wire.sendLength(n)`, with `Wire.sendLength` among `effects`): the lowering follows
        such a call into the class's file, and a split over two of them is the method's."""
        sending: dict[bytes, set[bytes]] = {}  # class -> its methods that send
        for name in effects:
            cls, dot, method = name.rpartition(".")
            if dot and cls.isidentifier() and method.isidentifier():
                sending.setdefault(cls.encode(), set()).add(method.encode())
        made: dict[bytes, set[bytes]] = {}  # name given such an object -> the methods of its class that send
        for m in _NEW_OBJECT.finditer(data) if sending else ():
            holder = _HOLDER.search(data, max(0, m.start() - 80), m.start()) if m.group(1) in sending else None
            if holder is not None:
                made.setdefault(holder.group(1), set()).update(sending[m.group(1)])
        if not made:  # most files make no such object
            return set()
        calls = re.compile(rb"(?<![\w.])(?:this\s*\.\s*)?(" + b"|".join(map(re.escape, sorted(made)))
                           + rb")\s*\.\s*(\w+)\s*\(")
        return {q for q, a, b, cls in spans if cls is not None
                and any(m.group(2) in made[m.group(1)] for m in calls.finditer(data, a, b))}

    def with_events(self, data: bytes, names) -> set[str]:
        # The bytes do not tell a definition's text: a file without any
        # event has none in any of its definitions.
        return set(names) if self.events_in(data).search(data) is not None else set()

    def starts_in(self, data: bytes) -> "FileEvents":
        return FileEvents(self._starts, data, self)

    @cached_property
    def _starts(self) -> re.Pattern:
        """`sends_or_options` as one pattern (`FileEvents` reads its matches)."""
        return re.compile(b"|".join([self.send_calls.pattern, *map(re.escape, self.nodelay_words + OPTION_WORDS)]))

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
        # names none only appends to strings; nor is one made on a name the
        # file declares only as something else (see `FileEvents`), nor one
        # the lowering never makes a send of (see `SendEvents`).  Most files
        # have no write at all: comments and literals are blanked only in
        # those that have one.
        if not any(w in data for w in self.write_words) \
                or FileEvents(self.send_calls, data, self).search(data) is None:
            return False
        return any(lowered for _, lowered in self._send_kinds(data))

    def sends_on_nodelay_by_design_only(self, data: bytes) -> bool:
        return {kind for kind, _ in self._send_kinds(data)} == {True}

    @lru_cache(maxsize=1)  # asked twice of a file: whether it sends, and whether only on a framework's connections
    def _send_kinds(self, data: bytes) -> frozenset[tuple[bool, bool]]:
        """See `SendEvents.kinds`."""
        return SendEvents(self.send_calls, code_only(data), self).kinds()

    def framework_of(self, data: bytes) -> str | None:
        """How the connections of the framework the file uses write: "flush"
        (they buffer until a flush, with TCP_NODELAY on), "send", or None
        (see `Catalogue.frameworks`)."""
        return next((how for w, how in self.frameworks if data.find(w) >= 0), None)

    def answering(self, data: bytes) -> bool:
        """Whether the framework the file uses reads the peer's answer to each
        message written on its connections (see `Catalogue.answering`)."""
        return any(data.find(w.encode()) >= 0 for w in self.catalogue.answering)

    @cached_property
    def frameworks(self) -> tuple[tuple[bytes, str], ...]:
        return tuple((w.encode(), how) for w, how in self.catalogue.frameworks.items())

    def has_evidence(self, data: bytes) -> bool:
        """A connection the file can make at least medium-sure: the words
        (see `evidence_words`), a socket's type (see `type_endings`), or a
        framework's connection object, by its exact name, in a file of that
        framework (elsewhere a `Channel` is a project's own)."""
        if any(w in data for w in self.evidence_words):
            return True
        if any(_ends_a_type(data, t) for t in self.type_endings):
            return True
        return any(True for t in self.framework_words for _ in whole_words(data, t)) \
            and self.framework_of(data) is not None

    @cached_property
    def framework_words(self) -> tuple[bytes, ...]:
        return tuple(sorted(t.encode() for t in self.catalogue.framework_types))


def _ends_a_type(data: bytes, word: bytes) -> bool:
    """Whether `word` stands in `data` as a name or the end of a capitalized one."""
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
    return False


# What is never code: comments, and string, text-block and character literals.
# A block comment, a string and a character are read a run of plain bytes at
# a time (`[^*]*`, then what ends the run), not byte by byte, as `/\*.*?\*/`
# and `"(?:\\.|[^"\\\n])*"` read them (a third of the blanking's time on
# Netty's javadoc); they match the same text.
_CODE_NOISE = re.compile(rb'//[^\n]*|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/|"""(?:\\.|[^\\])*?"""'
                         rb'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\'[^\'\\\n]*(?:\\.[^\'\\\n]*)*\'', re.S)


def _blank(m: re.Match) -> bytes:
    """A comment or literal as spaces: the offsets of the code around it do not move."""
    return b" " * (m.end() - m.start())


@lru_cache(maxsize=1)  # asked of one file by its scan, its class facts and its enums
def code_only(data: bytes) -> bytes:
    return _CODE_NOISE.sub(_blank, data)


# Read backwards from a name: the type declaring it (maybe qualified, generic,
# an array or varargs), as `((?:\w+\.)*\w+)(<...>)?([])*(...)? name` reads.
_TYPE_BACK = re.compile(rb"\s*(?:\.\.\.)?\s*(?:\]\s*\[\s*)*(?:>[^;{}()=]*<\s*)?((?:\w+\s*\.\s*)*\w+)(?![\w.@])")
_DECLARED_END = re.compile(rb"\s*[=;,):]")  # what may follow a declared name
_NOT_TYPES = frozenset({b"return", b"throw", b"new", b"yield", b"else", b"case", b"assert", b"instanceof", b"goto"})
_SPACE = re.compile(rb"\s+")
# An object made and given to a name (`wire = new Wire(host)`, `this.wire = new Wire(..)`,
# `private final Wire wire = new Wire(..)`): group 1 the class; the name ends where it starts
# (`_HOLDER`, searched up to there).
_NEW_OBJECT = re.compile(rb"=\s*new\s+(\w+)\s*[(<]")
_HOLDER = re.compile(rb"(\w+)\s*\Z")
# Read backwards from a call's name: the dot before it, then the receiver:
# a name, or `this.` and a name, with no other dot before (`a.b.write()` is
# made on what `a.b` holds, unknown here).  Read backwards, a name ends with
# the letter it starts with (`buffer2`).
_DOT_BACK = re.compile(rb"\s*\.")
_RECEIVER_BACK = re.compile(rb"\s*(\w*[A-Za-z_])(?:\s*\.\s*(siht))?(?!\w)(?!\s*\.)")


class CallsOrNew:
    """Calls of `names` (`out.write(`, not `rewrite(`) and the matches of
    `new` (a regex led by its literal), as a regex alternation of both would
    find them (`pattern`, which `search` and `finditer` use), but faster:
    the calls are found in the reversed file, where each starts with its
    parenthesis, a literal the regex engine finds fast (the alternation is
    tried at every position of the file: six times slower on Netty's
    files)."""

    def __init__(self, names, new: bytes):
        names = sorted(names, key=len, reverse=True)
        self.pattern = re.compile(_calls(_escaped(names), rb"\b") + b"|" + new)
        self._calls_backwards = re.compile(rb"\(\s*(?:" + b"|".join(re.escape(n.encode()[::-1]) for n in names)
                                           + rb")(?!\w)")
        self._new = re.compile(new)

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None):
        return self.pattern.search(data, pos, len(data) if endpos is None else endpos)

    def finditer(self, data: bytes, pos: int = 0, endpos: int | None = None):
        return self.pattern.finditer(data, pos, len(data) if endpos is None else endpos)

    def spans(self, data: bytes, pos: int, endpos: int, backwards: bytes):
        """(start, end) of each match between `pos` and `endpos`: those of
        `new` in order, then the calls from the last; `backwards`: `data`
        reversed."""
        yield from (m.span() for m in self._new.finditer(data, pos, endpos))
        size = len(data)
        # One byte more, for the look at the byte before the name.
        for m in self._calls_backwards.finditer(backwards, size - endpos, size - pos + 1):
            if m.end() > size - pos:  # the name starts before `pos`
                return
            yield size - m.end(), size - m.start()


class FileEvents:
    """The matches of `pattern` (calls the lowering may make events of) in
    one file, less those it makes none of, as a pattern's `search` gives
    them: a call without a receiver (a method of the class's own, or of one
    it extends), and a call on a name that every declaration of it in the
    file types as a class the lowering does not know (`ByteBuf buf; ...
    buf.writeInt(1)` calls a method of the project or of a library, never a
    stream's), or on a class's name (a static method).  Calls setting an
    option count on anything (a bootstrap or a config object)."""

    def __init__(self, pattern, data: bytes, scan: JavaScanner):
        self.pattern, self.data, self.scan = pattern, data, scan
        self._backwards: bytes | None = None
        self._typed_away: dict[tuple[bytes, bool], bool] = {}
        self._types: dict[bytes, list[str]] = {}

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None):
        """A match that may be an event, as (start, end), or None."""
        endpos = len(data) if endpos is None else endpos
        if isinstance(self.pattern, CallsOrNew):
            spans = self.pattern.spans(data, pos, endpos, self.backwards)
        else:
            spans = (m.span() for m in self.pattern.finditer(data, pos, endpos))
        for start, end in spans:
            # A word (an option's name) counts as it is; a call by its name, after a leading `.`.
            if data[end - 1] != 40 or self.may_be_event(start + (data[start] == 46)):  # 40: `(`
                return start, end
        return None

    @property
    def backwards(self) -> bytes:
        """The file reversed, made once."""
        if self._backwards is None:
            self._backwards = self.data[::-1]
        return self._backwards

    def may_be_event(self, at: int) -> bool:
        """Whether the call whose name starts at `at` may be an event."""
        data = self.data
        if data.startswith(self.scan.always_events, at):
            return True
        dot = _DOT_BACK.match(self.backwards, len(data) - at)
        if dot is None:
            return False
        r = _RECEIVER_BACK.match(self.backwards, dot.end())
        if r is None:
            return True  # made on what a call or an expression gives
        key = (r.group(1)[::-1], r.group(2) is not None)
        away = self._typed_away.get(key)
        if away is None:
            away = self._typed_away[key] = self._typed_away_(*key)
        return not away

    def _typed_away_(self, name: bytes, this: bool) -> bool:
        if name in (b"this", b"super"):
            return False
        types = self.types_of(name)
        if not types:
            return not this and name[:1].isupper() and name.decode() not in self.scan.types.known
        return all(map(self._holds_none, types))

    def _holds_none(self, typ: str) -> bool:
        """Whether a name declared as `typ` never holds a connection: a class
        the lowering does not know, or a primitive (`int value`: the name has
        another declaration where a method is called on it)."""
        return typ in CONVERSIONS.boxes or self.scan.types.holds_no_connection(typ)

    def types_of(self, name: bytes) -> list[str]:
        """The types of every declaration of `name` in the file (their simple names)."""
        types = self._types.get(name)
        if types is None:
            types = self._types[name] = []
            for at in whole_words(self.data, name):
                if _DECLARED_END.match(self.data, at + len(name)):
                    typ = _TYPE_BACK.match(self.backwards, len(self.data) - at)
                    if typ is not None and typ.group(1)[::-1] not in _NOT_TYPES:
                        types.append(_SPACE.sub(b"", typ.group(1)[::-1]).rsplit(b".", 1)[-1].decode())
        return types



# Read backwards from a call's dot: the `)` ending what it is made on, the
# parentheses inside, and the name before the `(` that matches it.
_CLOSE_BACK = re.compile(rb"\s*\)")
_PARENS = re.compile(rb"[()]")
_NAME_BACK = re.compile(rb"\s*(\w+)")
# A getter's body, then what comes before it: its name, no parameters (searched apart: a
# pattern starting with the name would be tried at every word of the file).
_RETURN_FIELD = re.compile(rb"\{\s*return\s+(?:this\s*\.\s*)?\w+\s*;\s*\}")
_GETTER_HEAD = re.compile(rb"(\w+)\s*\(\s*\)\s*(?:throws\s[\w\s,.]*)?\Z")
_NEW_BACK = re.compile(rb"(?:\s*\.\s*\w+)*\s+wen(?!\w)")  # `new` and a package before a class's name

# Read backwards from a call's dot: what the call is made on, as written
# (`System.out`), where it is a name or a chain of names.
_CHAIN_BACK = re.compile(rb"\s*((?:\w*[A-Za-z_]\s*\.\s*)*\w*[A-Za-z_])(?![\w.])")


class SendEvents(FileEvents):
    """`FileEvents` of the send calls, less those the lowering never makes a
    send of: made on `super` (a method of the class's parent, as written
    here), on a class's name (a static method: `String.format`), or on what
    the catalogue names no connection (`System.out`, `StringBuilder sb`)."""

    def __init__(self, pattern, data: bytes, scan: JavaScanner):
        super().__init__(pattern, data, scan)
        self.framework_nodelay = scan.framework_of(data) == "flush"

    def kinds(self) -> frozenset[tuple[bool, bool]]:
        """(kind, made) of the sends the lowering may make of the file's
        calls.  The kind: True for one made on a name declared only as a
        framework's connection, in a file whose framework's connections have
        TCP_NODELAY on (`ChannelHandlerContext ctx`, as the lowering tells
        them); False for any other.  Made: False for one the lowering never
        makes, in code it never enters (a lambda, an anonymous class's body)
        or on what `new` makes of a class that is no stream
        (`new StringBuilder().append(..)`): such a send lets no file
        through, but still counts against a file sending only on a
        framework's connections, as it did before the scan told them apart
        (that count reads the declarations, and the lowering's reading of
        some of them differs).  The search ends once a send is made and one
        (made or not) is a plain one; once a send is made, a framework's
        send counts as made, unlooked at."""
        found, unlowered = set(), Unlowered(self.data, self.backwards)
        some_made = some_plain = False
        for m in self.pattern.finditer(self.data):
            if (False, False) in found and m.start() in unlowered:
                continue  # nothing more to learn from a send the lowering never makes
            sent = self.kind(m.start() + 1)  # the name, after its `.`
            if sent is None:
                continue
            kind, made = sent
            if made and not (kind and some_made):  # a framework's send made tells nothing new once one is
                made = m.start() not in unlowered
            found.add((kind, made))
            some_made, some_plain = some_made or made, some_plain or not kind
            if some_made and some_plain:
                break  # what `sends_in` and `sends_on_nodelay_by_design_only` ask is known
        return frozenset(found)

    def kind(self, at: int) -> tuple[bool, bool] | None:
        """(the kind, whether the lowering may make it: see `kinds`) of the
        send whose name starts at `at`; None where it is none."""
        if not self.may_be_event(at):
            return None
        dot = _DOT_BACK.match(self.backwards, len(self.data) - at)
        chain = _CHAIN_BACK.match(self.backwards, dot.end())
        if chain is None:
            return self._on_call(dot.end())
        receiver = _SPACE.sub(b"", chain.group(1)[::-1])
        if receiver == b"super" or receiver.decode() in self.scan.catalogue.not_tcp:
            return None
        if b"." not in receiver and receiver[:1].isupper() and not self._declared(receiver):
            return None  # a class's name (a static method), as `FileEvents` reads one
        name = receiver.removeprefix(b"this.")
        if not self.framework_nodelay or b"." in name:
            return False, True
        types, frameworks = self.types_of(name), self.scan.catalogue.framework_types
        return bool(types) and all(t in frameworks or self._holds_none(t) for t in types), True

    def _on_call(self, back: int) -> tuple[bool, bool] | None:
        """`kind` of a send made on what the expression ending `back`
        bytes from the end of the file gives: none where it is a call of a
        method other than those giving a connection's stream or the
        connection (`getOutputStream()`, `channel()`: a method's result,
        `Unpooled.buffer()`, is no connection the lowering knows)."""
        backwards = self.backwards
        close = _CLOSE_BACK.match(backwards, back)
        if close is None:
            return False, True  # an array's element, a literal...
        depth, at = 0, close.end() - 1
        for paren in _PARENS.finditer(backwards, at):
            depth += 1 if paren.group() == b")" else -1
            if depth == 0:
                name = _NAME_BACK.match(backwards, paren.end())
                if name is None:
                    return False, True  # a parenthesized expression or a cast
                called = name.group(1)[::-1].decode()
                if _NEW_BACK.match(backwards, name.end()):  # what `new` makes: a connection or a stream over one?
                    return False, called in self.scan.types.wrappers or called in self.scan.socket_makers
                return (False, True) if called in self.scan.method_wrappers or called in self.getters else None
        return False, True

    @cached_property
    def getters(self) -> frozenset[str]:
        """The names of the file's methods that take nothing and return a field
        or a variable as it is (`getOut() { return out; }`): the lowering takes
        such a getter's result for that field, which may be a connection's stream."""
        data, found = self.data, set()
        for body in _RETURN_FIELD.finditer(data):
            head = _GETTER_HEAD.search(data, max(0, body.start() - 300), body.start())
            if head is not None:
                found.add(head.group(1).decode())
        return frozenset(found)

    def _holds_none(self, typ: str) -> bool:
        # What the catalogue names no connection (`StringBuilder`) makes no send either.
        return super()._holds_none(typ) or typ in self.scan.catalogue.not_tcp

    def _declared(self, name: bytes) -> bool:
        return any(_DECLARED_END.match(self.data, at + len(name)) for at in whole_words(self.data, name))


# A lambda's arrow, or a switch's rule's (`case A, B ->`, `default ->`):
# read backwards from it, a `case` or `default` since the statement's start.
_ARROW = re.compile(rb"->")
_RULE_BACK = re.compile(rb"[^;{}]*?(?<!\w)(?:esac|tluafed)(?!\w)")
# `new`, a class's name (maybe qualified or generic) and the `(` of its
# arguments: a `{` after them opens an anonymous class's body.
_NEW_CALL = re.compile(rb"new\s+(?:\w+\s*\.\s*)*\w+\s*(?:<[^;{}()=]*>\s*)?\(")
_PAIRED = re.compile(rb"[()\[\]{}]")
_BRACKETS = re.compile(rb"[()\[\]{};,]")
_BLANKS = re.compile(rb"\s*")
_OPENING, _CLOSING = b"([{", b")]}"


class Unlowered:
    """The parts of a Java file's code (comments and literals blanked) that
    the lowering never enters: lambdas' bodies and anonymous classes'
    bodies.  `at in unlowered`: whether the offset `at` lies in one.
    Where the bytes leave a doubt (an arrow inside a switch's rule, a
    lambda's expression ending in a generic's comma), the part is left out
    of them, not guessed.  The parts are read from the start of the file
    only as far as an offset asked for: one that holds it begins before it,
    and a file's first send is often all the byte scan asks about."""

    def __init__(self, code: bytes, backwards: bytes):
        """`backwards`: `code` reversed."""
        self.code, self.backwards = code, backwards
        self.parts: list[tuple[int, int]] = []
        self._arrows, self._news = _ARROW.finditer(code), _NEW_CALL.finditer(code)
        self._next = [next(self._arrows, None), next(self._news, None)]  # the next lambda's and class's beginnings

    def __contains__(self, at: int) -> bool:
        arrow, new = self._next
        while arrow is not None and arrow.start() < at:
            self._add(self._lambda(arrow))
            arrow = next(self._arrows, None)
        while new is not None and new.start() < at:
            self._add(self._anonymous_class(new))
            new = next(self._news, None)
        self._next = [arrow, new]
        return any(a <= at < b for a, b in self.parts)

    def _add(self, part: tuple[int, int] | None) -> None:
        if part is not None:
            self.parts.append(part)

    def _lambda(self, arrow: re.Match) -> tuple[int, int] | None:
        code = self.code
        if _RULE_BACK.match(self.backwards, len(code) - arrow.start()):
            return None  # maybe a switch's rule (`case 1 -> out.write(b);`), lowered as its statements
        body = _BLANKS.match(code, arrow.end()).end()
        end = _closed(code, body) if code[body:body + 1] == b"{" else _expression_end(code, body)
        return (arrow.end(), end) if end is not None else None

    def _anonymous_class(self, new: re.Match) -> tuple[int, int] | None:
        code = self.code
        if new.start() and code[new.start() - 1] in WORD_BYTES:
            return None  # a longer name's end (`renew`): no look-behind, which would be tried everywhere
        arguments_end = _closed(code, new.end() - 1)
        body = _BLANKS.match(code, arguments_end).end() if arguments_end is not None else None
        if body is None or code[body:body + 1] != b"{":
            return None
        end = _closed(code, body)
        return (body, end) if end is not None else None


def _closed(code: bytes, at: int) -> int | None:
    """The offset after the bracket closing the one at `at` (None where none does)."""
    depth = 0
    for m in _PAIRED.finditer(code, at):
        if m.group() in _OPENING:
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.end()
    return None


def _expression_end(code: bytes, at: int) -> int | None:
    """Where the expression starting at `at` ends: the first `,` `;` or
    closing bracket outside its own brackets (None where the file ends first)."""
    depth = 0
    for m in _BRACKETS.finditer(code, at):
        c = m.group()
        if c in _OPENING:
            depth += 1
        elif depth == 0:
            return m.start()
        elif c in _CLOSING:
            depth -= 1
    return None


# A class's head: its kind and name (then what it extends or implements, up to its body).
_CLASS_WORD = re.compile(rb"(?:class|interface|enum|record)\s+(\w+)")
_HEAD_REST = re.compile(rb"[^{;=]*\{")
_INNERMOST_ANGLES = re.compile(rb"<[^<>]*>")
_SUPER_LISTS = re.compile(rb"\b(?:extends|implements)\s+(.*?)(?=\b(?:implements|permits)\b|\Z)", re.S)
_NEW_NAME = re.compile(rb"new\s+((?:\w+\s*\.\s*)*\w+)")  # (matched where _NEW_CALL is)
# A member of a class body declared without a body: a type's end, its name, its parameters.
_NO_BODY = re.compile(rb"[\w>\]]\s+(\w+)\s*\([^;{}=]*\)\s*(?:throws\s[\w\s,.]*)?\Z")
_MEMBER_ENDS = re.compile(rb"[{};]")
_NAME_BYTES = WORD_BYTES | frozenset(b".")


@lru_cache(maxsize=1)  # asked of one file by its lowering (a class's supertypes) and for its model
def class_facts(data: bytes) -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
    """Class -> the types it extends or implements, by their last names (see
    `FileModel.supertypes`), an anonymous class (`new Transport() {..}`) under
    a name no class has (`Transport@120`, its offset) as an implementation of
    its type whose methods are not lowered; and `Class.method` of each method
    declared without a body (an interface's, an abstract one: see
    `FileModel.abstract`)."""
    code = code_only(data)
    supertypes: dict[str, tuple[str, ...]] = {}
    bodies: dict[int, str] = {}  # where a class's body opens -> its name
    for m in _CLASS_WORD.finditer(code):
        if m.start() and code[m.start() - 1] in _NAME_BYTES:
            continue  # `Foo.class`, or a longer word
        rest = _HEAD_REST.match(code, m.end())
        if rest is None:
            continue
        name = m.group(1).decode("ascii", "replace")
        bodies[rest.end() - 1] = name
        head = code[m.end():rest.end() - 1]
        while b"<" in head:
            stripped = _INNERMOST_ANGLES.sub(b"", head)
            if stripped == head:
                break
            head = stripped
        supers = tuple(n for s in _SUPER_LISTS.finditer(head) for n in (
            part.strip().rsplit(b".", 1)[-1].strip().decode("ascii", "replace") for part in s.group(1).split(b",")) if n)
        if supers:
            supertypes.setdefault(name, supers)
    for m in _NEW_CALL.finditer(code):
        if m.start() and code[m.start() - 1] in WORD_BYTES:
            continue  # a longer name's end (`renew`)
        arguments_end = _closed(code, m.end() - 1)
        body = _BLANKS.match(code, arguments_end).end() if arguments_end is not None else 0
        if arguments_end is not None and code[body:body + 1] == b"{":
            name = _NEW_NAME.match(code, m.start()).group(1).rsplit(b".", 1)[-1].strip().decode("ascii", "replace")
            supertypes[f"{name}@{m.start()}"] = (name,)
    return supertypes, _abstract_methods(code, bodies) if b"abstract" in code or b"interface" in code else frozenset()


_ENUM_WORD = re.compile(rb"\benum\s+(\w+)\s*(?:implements\b[^{;=]*)?\{")


def enum_names(data: bytes) -> frozenset[str]:
    """The enums the file declares (see `FileModel.enums`)."""
    if b"enum" not in data:
        return frozenset()
    code = code_only(data)
    return frozenset(m.group(1).decode("ascii", "replace") for m in _ENUM_WORD.finditer(code)
                     if not m.start() or code[m.start() - 1] not in _NAME_BYTES)


def _abstract_methods(code: bytes, bodies: dict[int, str]) -> frozenset[str]:
    """`Class.method` of each member of a class body (of `bodies`) that is a
    method declared without a body: in one pass over the braces and semicolons."""
    found, classes, start = set(), [], 0  # the class of each open brace (None: a method's, a block's)
    for e in _MEMBER_ENDS.finditer(code):
        c = e.group()
        if c == b"{":
            classes.append(bodies.get(e.start()))
        elif c == b"}":
            if classes:
                classes.pop()
        elif classes and classes[-1] is not None and code.find(b"=", start, e.start()) < 0:
            head = _NO_BODY.search(code, start, e.start())
            if head is not None and code.find(b"native", start, e.start()) < 0:
                found.add(f"{classes[-1]}.{head.group(1).decode('ascii', 'replace')}")
        start = e.end()
    return frozenset(found)
