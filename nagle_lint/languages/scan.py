"""The byte scan: what a file's bytes tell before any parse (whether it can
matter, the names it calls and defines, where its functions are).  It needs
no grammar and no model, so that a tree with no socket code costs a read and
a scan of each file, and nothing else."""

from __future__ import annotations

import re
import sys
from functools import cached_property, lru_cache


OPTION_WORDS = (b"TCP_CORK", b"TCP_NOPUSH", b"MSG_MORE")
_RECEIVER = re.compile(rb"\s*[\w.\]\[]*")  # read backwards


WORD_BYTES = frozenset(b"_" + bytes(range(48, 58)) + bytes(range(65, 91)) + bytes(range(97, 123)))


def whole_words(data: bytes, word: bytes):
    """The offsets where `word` stands as a whole name (not part of a longer one);
    none for an empty word (a name a broken parse left empty), which is found
    everywhere without moving on."""
    if not word:
        return
    start = 0
    while (at := data.find(word, start)) >= 0:
        start = end = at + len(word)
        if not (at and data[at - 1] in WORD_BYTES or end < len(data) and data[end] in WORD_BYTES):
            yield at

def _word_starts(data: bytes, at: int) -> bool:
    """Whether a name starts at offset `at` (not inside a longer one)."""
    return not (at and data[at - 1] in WORD_BYTES)


# Names that suggest a socket (a medium-confidence connection when nothing else is known),
# as a whole segment of the name: `sock`, `client_fd`, `peerSocket`, `SOCK`, `conns[i]`; not
# inside a longer word (`chunk`, `change`, `search`, `disconnect`).
_SOCKET_WORDS = ("sock", "socket", "sockfd", "sd", "conn", "connection", "connfd", "cfd", "clientfd", "client",
                 "peer", "channel", "ch", "upstream", "downstream", "remote")


def _either(words) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


def stems(names) -> set[str]:
    """The names none of the others starts with (`send` for `sendto`)."""
    return {n for n in names if not any(o != n and n.startswith(o) for o in names)}


def escaped(names, tail: bytes = b"") -> list[bytes]:
    """Each name as a regex, followed by `tail`, in sorted order."""
    return [re.escape(n.encode()) + tail for n in sorted(names)]


# Compiled on first use (re keeps it): a big pattern, which a file with
# evidence of its sockets never needs.
_SOCKETY = (
    rf"(?:^|(?<=[_.>]))(?:{_either(_SOCKET_WORDS)})(?:s|fd|_fd|et|Fd|FD)?(?=$|[_\[]|[A-Z0-9])"
    rf"|(?:^|(?<=[_.>a-z0-9]))(?:{_either(w.capitalize() for w in _SOCKET_WORDS)})(?:s|fd|Fd|FD|_fd|et)?(?=$|[_\[]|[A-Z0-9])"
    rf"|(?:^|(?<=[_.>]))(?:{_either(w.upper() for w in _SOCKET_WORDS)})(?:S|FD|_FD)?(?=$|[_\[0-9])"
)


class PlainCalls:
    """Calls of the names `names` spells, as plain calls: not of a member
    (`c->send(...)`), not a longer name's tail (`ngx_write(...)`); or one of
    `words`.  Answers `search`/`finditer` as a compiled pattern does, and
    tells a call site's name (see `FunctionTexts`).

    Found from the literal part that each name has (`anchors`: `send` for
    `sendto` and `send\\w*`), looked for with `bytes.find`, and the name
    matched from the start of the word around it: a regex alternation of
    names, or a look-behind, would be tried at every position of the file
    (several times slower)."""

    _NOT_BEFORE = WORD_BYTES | frozenset(b".>")

    def __init__(self, names: bytes, words: tuple[bytes, ...] = (), inner: tuple[tuple[bytes, bytes], ...] = ()):
        """`inner`: (regex, anchor) of names found by a literal within them
        (`_send` of `[A-Za-z]\\w*_send\\w*`), not at their start."""
        self.names, self.words, self.inner = names, words, inner
        every = b"|".join([names, *(regex for regex, _ in inner)])
        self._call = re.compile(b"(?:" + every + rb")\s*\(")
        self._word = re.compile(b"|".join(re.escape(w) for w in words)) if words else None
        self._name = re.compile(every)
        self._known: dict[str, bool] = {}
        self.anchors = _fewest(_anchors(names) + tuple(anchor for _, anchor in inner))

    def finditer(self, data: bytes, pos: int = 0, endpos: int | None = None):
        end = len(data) if endpos is None else min(endpos, len(data))
        starts = set()  # (offset, 0 for a call or 1 for a word)
        for anchor in self.anchors:
            starts.update(self._starts(data, anchor, pos, end))
        for w in self.words:
            starts.update(self._at(data, w, pos, end))
        return self._matches(data, sorted(starts), end, pos)

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None):
        """The first match, found without finding every place an anchor is
        (a name like `read` is part of thousands in a big C file): the
        anchors' places are merged in order, as they are found."""
        from heapq import merge

        end = len(data) if endpos is None else min(endpos, len(data))
        places = merge(*(self._starts(data, anchor, pos, end) for anchor in self.anchors),
                       *(self._at(data, w, pos, end) for w in self.words))
        return next(self._matches(data, _distinct(places), end, pos), None)

    @staticmethod
    def _starts(data: bytes, anchor: bytes, pos: int, end: int):
        """(start of the word around it, 0) for each place of `anchor`, in order."""
        at = data.find(anchor, pos, end)
        while at >= 0:
            start = at
            while start > pos and data[start - 1] in WORD_BYTES:
                start -= 1
            yield start, 0
            at = data.find(anchor, at + len(anchor), end)

    @staticmethod
    def _at(data: bytes, word: bytes, pos: int, end: int):
        at = data.find(word, pos, end)
        while at >= 0:
            yield at, 1
            at = data.find(word, at + 1, end)

    def _matches(self, data: bytes, starts, end: int, pos: int = 0):
        # No two matches overlap: a start inside a match is preceded by a
        # name's character (or is a space or the parenthesis).
        for start, kind in starts:
            m = (self._word if kind else self._call).match(data, start, end)
            if m is not None and (start == 0 or data[start - 1] not in self._NOT_BEFORE) \
                    and (kind or not _class_statement(data, start, pos)):
                yield m

    def extended(self, words: tuple[bytes, ...]) -> "PlainCalls":
        return PlainCalls(self.names, self.words + words, self.inner)

    def calls(self, name: str) -> bool:
        known = self._known.get(name)
        if known is None:
            known = self._known[name] = self._name.fullmatch(name.encode()) is not None
        return known

    def word_places(self, data: bytes) -> list[tuple[int, int]]:
        """(start, end) of each match of one of its words, in order."""
        places = sorted({place for w in self.words for place in self._at(data, w, 0, len(data))})
        return [m.span() for m in self._matches(data, places, len(data))]


def _class_statement(data: bytes, start: int, pos: int) -> bool:
    """Whether the name at `start` is the one a class statement defines
    (`class Server(Base):`, its keyword within the text from `pos`): no call,
    as the call sites read backwards tell (`_SITES_BACKWARDS`)."""
    at = start
    while at > pos and data[at - 1] in b" \t":
        at -= 1
    return at < start and at - 5 >= pos and data[at - 5:at] == b"class" \
        and (at - 5 == pos or data[at - 6] not in WORD_BYTES)


def _may_match(pattern, data: bytes, names) -> bool:
    """Whether `pattern` may match in `data`, a file that calls (or
    defines) `names`: plain calls are told from the names, not looked for (a
    file without any has many places of their anchors)."""
    if isinstance(pattern, PlainCalls):
        return any(map(pattern.calls, names)) or any(w in data for w in pattern.words)
    if isinstance(pattern, AnyOf):
        return pattern.found(data)
    return pattern.search(data) is not None


def _distinct(places):
    """An ordered sequence without its repeats."""
    last = None
    for place in places:
        if place != last:
            yield place
            last = place


class AnyOf:
    """Where any of `patterns` matches (the first match): each is searched on
    its own, as a regex that starts with a literal is searched fast, and an
    alternation of such regexes is tried at every position (several times
    slower)."""

    def __init__(self, *patterns: bytes):
        self.patterns = patterns
        self._compiled = [re.compile(p) for p in patterns]

    def search(self, data: bytes, pos: int = 0, endpos: int | None = None):
        end = len(data) if endpos is None else endpos
        found = [m for m in (p.search(data, pos, end) for p in self._compiled) if m is not None]
        return min(found, key=lambda m: m.start()) if found else None

    def found(self, data: bytes, pos: int = 0, endpos: int | None = None) -> bool:
        """Whether any of the patterns matches: each searched until one does
        (where the place does not matter, the first pattern found is enough)."""
        end = len(data) if endpos is None else endpos
        return any(p.search(data, pos, end) for p in self._compiled)

    def places(self, data: bytes) -> list[tuple[int, int]]:
        """(start, end) of every match of every pattern, in order.  No two
        matches of one pattern overlap (each starts at a `.` or at a word it
        holds once), so a range holds a match of its own (`search` within
        it) exactly where it holds one of these whole."""
        return sorted(m.span() for p in self._compiled for m in p.finditer(data))

    def extended(self, *patterns: bytes) -> "AnyOf":
        return AnyOf(*self.patterns, *patterns)


def _anchors(names: bytes) -> tuple[bytes, ...]:
    """The literal start of each name of a `|`-separated list of simple
    regexes (`accept4?` -> `accept`, `send\\w*` -> `send`), without those
    that hold a shorter one (`sendto` is found where `send` is)."""
    found = set()
    for alternative in names.split(b"|"):
        literal = re.match(rb"\w*", alternative).group()
        if alternative[len(literal):len(literal) + 1] in (b"?", b"*", b"{"):
            literal = literal[:-1]  # the last character is optional
        if len(literal) < 3:
            raise ValueError(f"a name needs a literal start of 3 characters or more: {alternative!r}")
        found.add(literal)
    return _fewest(found)


def _fewest(anchors) -> tuple[bytes, ...]:
    """The anchors without those that hold a shorter one (found where it is)."""
    return tuple(sorted(a for a in set(anchors) if not any(b != a and b in a for b in anchors)))


def socket_like(name: str) -> bool:
    return bool(re.search(_SOCKETY, name.replace("self.", "").replace("this.", "")))


@lru_cache(maxsize=4096)
def _socket_like_cached(target: bytes) -> bool:
    return socket_like(target.decode("latin-1"))


def name_key(name: str) -> bytes:
    """A name as a skipped file's facts hold it: its bytes, reversed (as the
    scan finds it in the reversed file: no decoding of every name found)."""
    return name.encode()[::-1]


def keys_of(names) -> frozenset[bytes]:
    return frozenset(map(name_key, names))


def names_of(keys) -> set[str]:
    return {key[::-1].decode() for key in keys}


def called_keys(data: bytes, backwards: bytes | None = None) -> frozenset[bytes]:
    """The names followed by a parenthesis (calls, and definitions, which
    look the same), as keys (see `name_key`).  Searched in the reversed file
    (`backwards`, where made already), where each starts with the
    parenthesis, a literal the regex engine finds fast (a name first would
    be tried at every position: several times slower)."""
    found = _CALLS_BACKWARDS.findall(data[::-1] if backwards is None else backwards)
    keys = {name for name, _ in found}
    keys.update(_on_class(name, cls) for name, cls in found if cls)
    return frozenset(keys)


def _on_class(name: bytes, cls: bytes) -> bytes:
    """The key of `Class.name` (see `_CLASS_BACKWARDS`), or b"": both read backwards."""
    return name + b"." + cls if cls else b""


# A whole name, never part of one: `\w++` gives back none of it where what
# follows fails (a call on an object, whose name read backwards ends in a small
# letter: a third of the time of a file's call sites); Python 3.10's engine
# has no possessive quantifier, and `\w+(?!\w)` matches the same.
_WHOLE_NAME = rb"\w++" if sys.version_info >= (3, 11) else rb"\w+(?!\w)"
# A name does not start with a digit: its last character, read backwards.
# A method called on a class (`Messages.sendReady(`, a static method) is a
# call of `Messages.sendReady` too, the method of that class by its qualified
# name: the class's name, read backwards after the dot, ends with a capital.
_CLASS_BACKWARDS = rb"(?:\.(" + _WHOLE_NAME + rb")(?<=[A-Z]))?"
_CALLS_BACKWARDS = re.compile(rb"\(\s*(" + _WHOLE_NAME + rb")(?<![0-9])" + _CLASS_BACKWARDS)
# With the byte before the name, as read forwards: `.` or `>` for a member's call, and
# the object's name too where it is the object itself (`self.read_reply(`, `this.receive(`).
# A class statement (`class Server(Base):`) defines the class: it makes no object.
_SITES_BACKWARDS = re.compile(rb"\(\s*(" + _WHOLE_NAME + rb")(?<![0-9])(?![ \t]+ssalc(?!\w))"
                              rb"(?=(\.\s*(?:fles|siht)(?![\w.])|[.>]?))" + _CLASS_BACKWARDS)


def _sites_between(data: bytes, backwards: bytes, start: int, end: int) -> set[tuple[bytes, bytes, bytes]]:
    """(name reversed, the byte before it if `.` or `>`, the class it is
    called on reversed or b"") of each call site
    whose name and parenthesis lie between `start` and `end`; `backwards`:
    `data` reversed."""
    while 0 < start < end and data[start - 1] in WORD_BYTES:  # a name begun before the range is not one of its
        start += 1
    size = len(data)
    # The byte before the range is seen too, for a name at its start.
    return set(_SITES_BACKWARDS.findall(backwards, size - end, size - start + 1 if start else size))


def _names_called(sites) -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, set[str]]]:
    """Function -> the names it calls, -> those it calls by their bare name,
    and -> those it calls on the object itself (`self.name(`), from
    `FunctionTexts._call_sites`.  A name defined more than once (in
    branches of an `#if`) calls what any of its texts calls."""
    names = {n: n[::-1].decode() for n in {n for _, found in sites for site in found for n in site[::2] if n}}
    calls: dict[str, set[str]] = {}
    bare: dict[str, set[str]] = {}
    own: dict[str, set[str]] = {}
    for q, found in sites:
        calls.setdefault(q, set()).update(names[n] for site in found for n in site[::2] if n)
        bare.setdefault(q, set()).update(names[n] for n, before, _ in found if not before)
        own.setdefault(q, set()).update(names[n] for n, before, _ in found if len(before) > 1)
    return calls, bare, own


def n_is_root(qualname: str) -> bool:
    """A pseudo-function for module-level code (`<module>`)."""
    return qualname.startswith("<")


# A statement that is a call: group 1 the name called.
_A_CALL = re.compile(rb"\s*([A-Za-z_][\w.]*)\s*\(.*\)\s*", re.DOTALL)


class FunctionTexts:
    """Where each function's text lies in the file, to tell which functions a
    pattern matches in (one pass over the file, not one per function), and the
    names each calls (read from its range of the reversed file: a set of
    names each, where placing every call site by its offset cost twice as
    much).  A pseudo-function for module-level code holds only what no
    function holds."""

    def __init__(self, spans, data: bytes):
        """`spans`: (qualified name, start, end) of each function."""
        from bisect import bisect_left

        self.data = data
        self.spans = spans
        self.inner = [(q, a, b) for q, a, b in spans if not n_is_root(q)]
        self.roots = [q for q, _, _ in spans if n_is_root(q)]
        self._bisect = bisect_left
        # `_bare`: the names called by their bare name (not as a member: `x.name(`, `p->name(`);
        # `_own`: those called on the object itself (`self.name(`, `this.name(`).
        self.calls, self._bare, self._own = _names_called(self._call_sites())

    def _call_sites(self) -> list[tuple[str, list[tuple[bytes, bytes, bytes]]]]:
        """(function, its call sites as (name, the byte before it, `Class.name` or b""),
        all reversed), module-level code's from the ranges no function holds."""
        data = self.data
        backwards = data[::-1]  # one reversed copy: each function's call sites are read from it
        sites = [(q, _sites_between(data, backwards, a, b)) for q, a, b in self.inner]
        if self.roots:
            outside = set().union(*(_sites_between(data, backwards, a, b) for a, b in self._gaps))
            sites += [(q, outside) for q in self.roots]
        return [(q, [(n, before, _on_class(n, cls)) for n, before, cls in found]) for q, found in sites]

    def add_member_calls(self, assigned: dict[str, set[str]]) -> None:
        """A call of a member in `assigned` (`p->send(`, not a bare `send(`) calls the names
        assigned to it too (C's function pointers); before any caller is looked up."""
        for q, called in self.calls.items():
            for member in (called - self._bare[q]) & assigned.keys():
                called |= assigned[member]

    def ending(self, last_statement, exits) -> set[str]:
        """The functions whose last statement (`last_statement` of the text's end) is a
        call of one of `exits`, or of one of the file's such functions: they never
        return, and their callers' paths end with the call.  (Only the last statement
        tells: every path that does not return before it runs it.)"""
        last = {}
        for q, a, b in self.inner:
            found = _A_CALL.fullmatch(last_statement(self.data[max(a, b - 240):b]))
            if found is not None:
                last[q] = found.group(1).decode()
        ending = {q for q, name in last.items() if name in exits}
        while True:
            names = {q.rsplit(".", 1)[-1] for q in ending}
            more = {q for q, name in last.items() if q not in ending and name in names}
            if not more:
                return ending
            ending |= more

    @cached_property
    def _callers(self) -> dict[str, set[str]]:
        """Name -> the functions whose text calls it."""
        return self._index(self.calls)

    @cached_property
    def _bare_callers(self) -> dict[str, set[str]]:
        """Name -> the functions whose text calls it by its bare name."""
        return self._index(self._bare)

    @cached_property
    def _own_callers(self) -> dict[str, set[str]]:
        """Name -> the functions whose text calls it by its bare name or on the object itself."""
        return self._index({q: self._bare[q] | self._own[q] for q in self._bare})

    @staticmethod
    def _index(calls: dict) -> dict[str, set[str]]:
        callers: dict[str, set[str]] = {}
        for q, names in calls.items():
            for name in names:
                callers.setdefault(name, set()).add(q)
        return callers

    def callers_of(self, name: str) -> set[str]:
        """The functions whose text calls `name` by its bare name."""
        return self._bare_callers.get(name, set())

    def calling(self, functions, bare: bool = False) -> set[str]:
        """`functions` and those calling one of them (by its name, as the
        file's own calls resolve; `bare`: by its bare name, or on the object
        itself, only), directly or through others of the file."""
        callers = self._own_callers if bare else self._callers
        found, todo = set(functions), list(functions)
        while todo:
            q = todo.pop()
            if n_is_root(q):  # module-level code has no name to call it by
                continue
            for caller in callers.get(q.rsplit(".", 1)[-1], ()):
                if caller not in found:
                    found.add(caller)
                    todo.append(caller)
        return found

    @cached_property
    def _gaps(self) -> list[tuple[int, int]]:
        """The ranges no function holds: module-level code."""
        gaps, at = [], 0
        for start, end in sorted((a, b) for _, a, b in self.inner):
            if start > at:
                gaps.append((at, start))
            at = max(at, end)
        gaps.append((at, len(self.data)))
        return [(a, b) for a, b in gaps if b > a]

    def matching(self, pattern: re.Pattern, among: set[str] | None = None) -> set[str]:
        """The functions whose text has a match of `pattern` (searched in
        each function's range: one match is enough, where a pass over the
        file would stop at every one); `among`: of those functions only."""
        if isinstance(pattern, PlainCalls):  # from the call sites already found: no pass over the file for names
            found = self._calling(pattern)
        elif isinstance(pattern, AnyOf):  # one pass per pattern: a file of many functions has few matches
            found = self._holding(pattern.places(self.data))
        else:
            return self._searched(pattern, among)
        return found if among is None else found & among

    def _calling(self, pattern: PlainCalls) -> set[str]:
        """The functions calling one of `pattern`'s names, or holding one of its words."""
        hits = {n for n in set().union(*self._bare.values()) if pattern.calls(n)}  # most files call few of them
        found = {q for q, bare in self._bare.items() if not hits.isdisjoint(bare)} if hits else set()
        return found | self._holding(pattern.word_places(self.data)) if pattern.words else found

    def _searched(self, pattern: re.Pattern, among: set[str] | None) -> set[str]:
        """The functions (of `among`) where `pattern` matches, searched range by range."""
        data, found = self.data, set()
        for q, start, end in self.inner:
            if (among is None or q in among) and pattern.search(data, start, end):
                found.add(q)
        roots = self.roots if among is None else [q for q in self.roots if q in among]
        if roots and any(pattern.search(data, a, b) for a, b in self._gaps):
            found.update(roots)
        return found

    def _holding(self, places: list[tuple[int, int]]) -> set[str]:
        """The functions whose range holds one of `places` (start, end) whole."""
        starts, bisect = [a for a, _ in places], self._bisect

        def holds(start: int, end: int) -> bool:
            i = bisect(starts, start)
            while i < len(places) and places[i][0] < end:
                if places[i][1] <= end:
                    return True
                i += 1
            return False

        found = {q for q, a, b in self.inner if holds(a, b)} if places else set()
        if self.roots and places and any(holds(a, b) for a, b in self._gaps):
            found.update(self.roots)
        return found


class Scanner:
    """One language's byte scan.  Subclasses set the class attributes."""

    # Bytes that any finding needs: a file without them is not parsed at all.
    # Patterns are written to start with a literal (or are PlainCalls), as
    # those are searched fast.
    send_calls: re.Pattern = re.compile(rb"$^")
    target_is_receiver = True  # a send is a method of the connection (else the connection is an argument)
    read_calls: re.Pattern = re.compile(rb"$^")
    nodelay_words: tuple[bytes, ...] = (b"TCP_NODELAY",)
    # What a file that sets TCP_NODELAY names too: the option is set only by
    # a setsockopt() call whose option is written TCP_NODELAY.  (A file that
    # only names it, in a longer name like curl's CURLOPT_TCP_NODELAY, in a
    # getsockopt() or in prose, sets nothing.)  Java sets it in more ways.
    nodelay_setter: bytes | None = b"setsockopt"
    events: re.Pattern = re.compile(rb"")  # a call that may lower to an event: functions without one are skipped
    # How the frontend names a class's constructors (`Client.<init>`), where it
    # names them apart: one keeps what it is given in fields that the class's
    # other methods write on, so it is lowered with them (see choice.py).
    constructor: str | None = None
    # Whether making a class (`Client(sock)`) lowers the constructors that
    # run, its own and its base classes', wherever the class has events (see
    # choice.py): a constructor may read the reply itself, through a helper.
    made_runs_constructors = False

    def code_only(self, data: bytes) -> bytes:
        """The file with its comments and string literals as spaces (offsets kept)."""
        return data

    def ending(self, texts: "FunctionTexts") -> set[str]:
        """The functions of the file that never return (see `FunctionTexts.ending`)."""
        return texts.ending(self.last_statement, self.catalogue.exits) if self.catalogue.exits else set()

    @staticmethod
    def last_statement(tail: bytes) -> bytes:
        """The last statement of a function's text, given its end: that before the closing
        brace, from the end of the one before it."""
        body = tail.rstrip()
        if not body.endswith(b"}"):
            return b""
        body = body[:-1].rstrip()
        if not body.endswith(b";"):
            return b""
        return body[max(body.rfind(b";", 0, -1), body.rfind(b"{"), body.rfind(b"}")) + 1:-1]

    @cached_property
    def evidence_words(self) -> tuple[bytes, ...]:
        """What makes a connection at least medium-sure (see `Catalogue.evidence_words`)."""
        return tuple(w.encode() for w in self.catalogue.evidence_words)

    def events_in(self, data: bytes) -> re.Pattern:
        """The event pattern for this file (a language may narrow it by what the file contains)."""
        return self.events

    def through_members(self, texts: FunctionTexts, data: bytes, functions) -> None:
        """Where the language calls functions through members (C's function pointers), add to
        `texts` the calls of `functions` made that way."""

    # A function definition around its name: what comes before (matched
    # against the bytes just before it) and after (at the end of the name).
    definition_before: re.Pattern | None = None
    definition_after: re.Pattern = re.compile(rb"\s*\([^;{}()]*\)\s*\{")
    # The name and `definition_after` read backwards from the brace (where
    # there is no `definition_before`): one pass over the reversed file finds
    # every name worth the check, each brace a literal the regex engine finds
    # fast.
    _definitions_backwards = re.compile(rb"\{\s*\)[^;{}()]*\(\s*(\w+)")

    # The words before the name a definition gives, where it does not look
    # like a call (`class Foo:`).
    declaration_words: tuple[bytes, ...] = ()

    @cached_property
    def _declarations(self) -> list[re.Pattern]:
        # One pattern per word, each led by its literal (searched fast); the
        # name is looked at, not taken, so that `dataclass\nclass Foo` gives Foo.
        return [re.compile(re.escape(w) + rb"(?=\s+([A-Za-z_]\w*))") for w in self.declaration_words]

    def declared(self, data: bytes) -> set[str]:
        """The names the file declares that `called_keys` would not see, and
        a few more (after a longer word that ends like a keyword: `undef x`):
        what a later round asks of them is checked on the bytes again."""
        # A word the file lacks is not searched for (`in` finds it faster than the pattern):
        # most files declare no enum or record.
        return {name.decode() for word, pattern in zip(self.declaration_words, self._declarations) if word in data
                for name in set(pattern.findall(data))}

    def definable(self, data: bytes, backwards: bytes | None = None) -> frozenset[bytes]:
        """The keys (see `name_key`) of the names the file may define a
        function (or class) of, by its bytes: a name in a definition's place,
        each checked by `defines`; `backwards`: the reversed file, where made
        already."""
        if self.definition_before is not None:  # the words before a definition are the ones `declared` looks for
            return keys_of(self.declared(data))
        return frozenset(self._definitions_backwards.findall(data[::-1] if backwards is None else backwards))

    def defines(self, data: bytes, names, definable: frozenset | None = None) -> set[str]:
        """Those of `names` the file defines a function (or class) of, by its
        bytes: checked where each stands, for the names a pass over the file
        finds in a definition's place (`definable`, their keys when known
        already: most files call many of the names a later round asks for,
        and define none)."""
        if not names:
            return set()
        definable = self.definable(data) if definable is None else definable
        names = {name for name in names if name_key(name) in definable}
        before, after = self.definition_before, self.definition_after
        return {name for name in names if any(
            (before is None or before.search(data, max(0, at - 64), at)) and after.match(data, at + len(name))
            for at in whole_words(data, name.encode()))}

    def may_define(self, names):
        """A test of a file's bytes that holds wherever `defines` finds one of
        `names` (and may hold elsewhere): one of them written, and, where a
        definition is told by the words before its name, those words before
        one of them (one pattern per word, led by its literal: searched fast)."""
        if not names:
            return lambda data: False
        words = [n.encode() for n in names]
        if self.definition_before is None:
            return lambda data: any(w in data for w in words)
        either = b"|".join(re.escape(n.encode()) for n in sorted(names))
        patterns = [re.compile(re.escape(w) + rb"\s+(?:" + either + rb")(?!\w)") for w in self.declaration_words]
        if len(words) > len(patterns):
            return lambda data: any(p.search(data) for p in patterns)
        # As few names as words: the names first (a pass each, as a pattern
        # is), as most files write none of them.
        return lambda data: any(w in data for w in words) and any(p.search(data) for p in patterns)

    def has_evidence(self, data: bytes) -> bool:
        """Words that make a connection at least medium-sure."""
        return any(w in data for w in self.evidence_words)

    def talks(self, data: bytes) -> bool:
        """Socket code of its own: a read, or a connection made or accepted."""
        return bool(self.read_calls.search(data)) or self.has_evidence(data)

    @cached_property
    def sends_or_options(self) -> re.Pattern:
        """Where a finding can start: a send, or a socket option set."""
        if isinstance(self.send_calls, PlainCalls):
            return self.send_calls.extended(self.nodelay_words + OPTION_WORDS)
        return AnyOf(self.send_calls.pattern, *(re.escape(w) for w in self.nodelay_words + OPTION_WORDS))

    def class_bases(self, data: bytes, classes) -> dict[str, tuple[str, ...]]:
        """Each of `classes` (qualified names) -> its base classes among them,
        in order, where the language has inheritance the scan can read."""
        return {}

    def starts_in(self, data: bytes) -> re.Pattern:
        """`sends_or_options` for this file (a language may narrow it by what the file contains)."""
        return self.sends_or_options

    @cached_property
    def _row_end(self) -> re.Pattern:
        """The end of an option table's row: one of the catalogue's option constants and its
        value, then the row closes (`TCP_NODELAY, 1}`, `socket.TCP_NODELAY, 1)`; not
        `TCP_NODELAY, &one, sizeof one)`); led by its literal, found fast (a longer
        name ending in one, `CURLOPT_TCP_NODELAY, 0)`, is told apart after, see `_word_starts`)."""
        names = b"|".join(re.escape(o.encode()) for o in sorted(self.catalogue.options) if o.isupper())
        return re.compile(rb"(?:" + names + rb")[ \t]*,[ \t]*[\w.]+[ \t]*[)}]")

    @cached_property
    def _setter_calls(self) -> tuple[bytes, ...]:
        return tuple(f"{s}(".encode() for s in sorted(self.catalogue.option_setters))

    def with_option_tables(self, starts, data: bytes):
        """`starts`, and in a file with what may be a row of an option table (`(IPPROTO_TCP,
        TCP_NODELAY, 1)`) every call of an option setter: one given its option by a variable
        (`sock.setsockopt(*row)`) sets what the file's tables hold, where the function calling
        it names no option itself."""
        if not any(_word_starts(data, m.start()) for m in self._row_end.finditer(data)):
            return starts
        if isinstance(starts, PlainCalls):
            return starts.extended(self._setter_calls)
        return starts.extended(*map(re.escape, self._setter_calls))

    def sends_in(self, data: bytes, min_confidence: str = "medium") -> bool:
        """Whether the file has a call that may send (and be lowered as a send
        on a connection of at least `min_confidence`, in the file itself)."""
        return bool(self.send_calls.search(data))

    def may_find(self, data: bytes, min_confidence: str = "medium", nodelay_by_design: bool = True) -> bool:
        """Whether a finding may start in the file.  `nodelay_by_design`:
        whether a rule runs that finds something in sends on a connection a
        framework makes with TCP_NODELAY on and buffers until a flush (see
        `rules.ON_NODELAY_BY_DESIGN`)."""
        if any(w in data for w in self.nodelay_words) and (self.nodelay_setter is None or self.nodelay_setter in data):
            return True
        if not self.sends_in(data, min_confidence):
            return False
        if not nodelay_by_design and self.sends_on_nodelay_by_design_only(data):
            return False
        if min_confidence == "low" or self.has_evidence(data):
            return True
        # Else only a name can make a connection medium-sure: the name of
        # what a send is made on.
        return any(_socket_like_cached(t) for t in set(self.send_targets(data)))

    def sends_on_nodelay_by_design_only(self, data: bytes) -> bool:
        """Whether every send of the file (where `sends_in` found one) is made
        on a connection a framework makes with TCP_NODELAY on and buffers
        until a flush, as far as the bytes tell (a language that cannot tell
        answers False)."""
        return False

    def send_targets(self, data: bytes):
        """What each send call is made on: the receiver (read backwards from
        the call), or, where the connection is an argument, the arguments."""
        if self.target_is_receiver:
            backwards, size = data[::-1], len(data)  # one reversed copy: each receiver is read from it
            for m in self.send_calls.finditer(data):
                at = size - m.start()
                yield _RECEIVER.match(backwards, at, at + 80).group()[::-1]
        else:
            for m in self.send_calls.finditer(data):
                yield data[m.end():m.end() + 160].split(b";", 1)[0]

    def facts(self, data: bytes, talks: bool | None = None, called=None) -> tuple[frozenset[bytes], frozenset[bytes], bool | None]:
        """What every later round asks of a file the byte scan skipped, worked
        out once: (the names it calls or defines, those it may define (see
        `definable`), both as keys (see `name_key`), whether it `talks`:
        None, unless told, as it matters only to the few that call a
        function that sends).  `called`: the file's `called_keys`, where
        found already."""
        # One reversed copy, where both passes read the file backwards.
        backwards = data[::-1] if called is None and self.definition_before is None else None
        definable = self.definable(data, backwards)
        called = called_keys(data, backwards) if called is None else called
        return definable | called, definable, talks

    def offers(self, data: bytes, needed, effects, facts, option_only=frozenset()) -> tuple[set[str], set[str], set[str]]:
        """What a file the byte scan skipped offers a later round: those of
        the `needed` names it defines, those of them worth lowering, and
        those of the `effects` (functions that send) it calls, when it shows
        socket code of its own; `facts`: see `facts`.  A call of one of
        `option_only` (effects that set an option and send nothing) counts
        only in a file that may send itself.

        Where the language tells its functions from the bytes, a call counts
        only inside a function (a C prototype looks like a call), and a
        definition without any event is not worth lowering (it would be a
        stub, which a call treats as it treats an unknown function), unless
        the file calls a function that sends (its callers are lowered then)."""
        names, definable, talks = names_of(facts[0]), names_of(facts[1]), facts[2]
        defined = self.defines(data, names & needed, facts[1])
        calls_effects = names & effects
        called = self._called(data, calls_effects, definable, talks, option_only)
        if defined and not called and not calls_effects and self.tells_functions \
                and not _may_match(self.events_in(data), data, names):
            return defined, set(), called  # no event in the whole file: in none of its definitions either
        spans = self.functions_of(data) if called or defined else None
        if spans is None:
            worth = defined if calls_effects else self.with_events(data, defined) | self.on_kept(data, defined, effects)
            return defined, worth, called
        texts = FunctionTexts([(q, a, b) for q, a, b, _ in spans], data)  # as the lowering will see them
        if called:
            called &= set().union(*texts.calls.values())
        worth = defined
        if defined and not calls_effects:
            with_events = texts.matching(self.events_in(data))
            reading = self.reading(texts, with_events)
            told = {q for q, _, _ in texts.spans}
            worth = {n for n in defined if n not in told or n in with_events or n in reading}
        return defined, worth, called

    def _called(self, data: bytes, called: set[str], definable: set[str], talks: bool | None,
                option_only) -> set[str]:
        """Those of `called` (functions that send, the file calls them) that
        count (see `offers`); `talks`: see `facts`."""
        if not called or not (self.talks(data) if talks is None else talks):
            return set()
        # A call resolves in its own file first: one it defines calls no other file's function.
        called = self.followed(data, called - self.top_level(data, called & definable))
        if called and called <= option_only and not self.send_calls.search(data):
            return set()
        return called

    def reading(self, texts: FunctionTexts, with_events: set[str]) -> set[str]:
        """The functions at `texts` that read, themselves or through the file's
        functions they call (a read helper calling the file's own reader, with
        no read of its own); `with_events`: those with an event of their own.
        Another file's call of one reads as much as a call of the reader."""
        return texts.calling(texts.matching(self.read_calls, among=with_events), bare=True)

    def with_events(self, data: bytes, names) -> set[str]:
        """Those of `names` (defined in the file) whose definition may hold
        an event, where the bytes tell a definition's text without telling
        every function's (see `offers`); else all of them."""
        return set(names)

    def on_kept(self, data: bytes, names, effects) -> set[str]:
        """Those of `names` (classes defined in the file) whose methods call, on an object
        the class keeps from a parameter, a method named as one of `effects`' methods
        (`self.dest.write_frame(` where another file's `Transport.write_frame` sends):
        where the language tells (else none), see `model.KEPT`."""
        return set()

    def kept_starts(self, data: bytes, spans, effects) -> set[str]:
        """Of the functions at `spans` (see `choice.choose`), the methods that call, on an
        object their class keeps from a parameter, a method named as one of `effects`'
        methods (see `on_kept`): where the language tells (else none)."""
        return set()

    def followed(self, data: bytes, names) -> set[str]:
        """Those of `names` (of functions the file calls) whose calls, as
        written here, the lowering may follow to another file: all of them,
        where the language does not say otherwise."""
        return set(names)

    def top_level(self, data: bytes, names) -> set[str]:
        """Those of `names` the file defines as functions of its own name
        (a call of that name in the file resolves to it), where the bytes
        tell (else none): those its `byte_functions` find."""
        spans = self.functions_of(data) if names else None
        return {q for q, _, _, _ in spans if q in names} if spans else set()

    def byte_functions(self, data: bytes):
        """(qualified name, start, end, class or None) of every function, from
        the bytes, where a language can tell them for sure (else None): the
        file is then parsed only where the functions worth lowering are."""
        return None

    def functions_of(self, data: bytes):
        """`byte_functions`, as a tuple, where the language has one."""
        return _functions_of(self, data) if self.tells_functions else None

    @property
    def tells_functions(self) -> bool:
        """Whether the language has a `byte_functions`."""
        return type(self).byte_functions is not Scanner.byte_functions

    def check_nesting(self, data: bytes) -> None:
        """Raise a RecursionError for a file nested too deeply to parse safely."""


@lru_cache(maxsize=4)
def _functions_of(scan: Scanner, data: bytes):
    """`Scanner.functions_of`, worked out once for the last few files: a file's
    lowering, its operations tables and a later round's offer each ask."""
    spans = scan.byte_functions(data)
    return None if spans is None else tuple(spans)


FEW_NAMES = 32  # needed names looked for in a file one by one, before working out its facts
# The facts of a skipped file where only this is known: it has no socket code
# of its own (`Scanner.talks`); which names it calls or defines is not.
QUIET = (None, None, False)


class LaterLook:
    """What a later round asks of each file the scan skipped (`wanted`, see
    `project.Wanted`): its offer, where it may define a needed name, or has
    socket code of its own and calls a function that sends.  A file's
    facts (see `Scanner.facts`) depend on its bytes only: worked out once,
    they answer every later round without the file being read again, unless
    they show it may offer something.  Where the needed names are few and
    the facts are not known, each name is looked for first (most files are
    ruled out so, faster than by working out their facts); a file ruled
    out for having no socket code keeps that fact (`QUIET`) for the next
    round, which looks for its own names again."""

    def __init__(self, wanted):
        self.wanted = wanted
        self.needed, self.effects = keys_of(wanted.needed), keys_of(wanted.effects)
        self._may_define: dict = {}  # language -> its `Scanner.may_define` of the needed names

    def offer(self, scan: Scanner, language: str, read, facts=None):
        """((defined, worth, called) as `Scanner.offers` tells them, or None
        where the file offers nothing; the file's facts, `QUIET`, or None where
        they were not worked out).  `read`: the file's bytes (None where it
        cannot be read now); `facts`: those worked out already."""
        whole = facts is not None and facts is not QUIET
        if whole and not self._may_offer(facts):
            return None, facts
        data = read()
        if data is None:
            return None, facts
        if not whole:
            facts = self._facts(scan, language, data, facts is QUIET)
            if facts is QUIET or not self._may_offer(facts):
                return None, facts
        defined, worth, called = scan.offers(data, self.wanted.needed, self.wanted.effects, facts,
                                             self.wanted.option_only)
        return ((defined, worth, called) if defined or called else None), facts

    def _may_offer(self, facts) -> bool:
        names, definable, talks = facts
        return bool(definable & self.needed or names & self.effects and talks is not False)

    def _facts(self, scan: Scanner, language: str, data: bytes, quiet: bool = False):
        """The file's facts, or `QUIET` where a look at the few needed names
        and at its socket code rules it out first (`quiet`: an earlier round
        found it has none).  Once the names it calls are found (the costly
        part), its facts are worked out whole, so that the next round does
        not look again."""
        talks = False if quiet else None
        called = None
        if len(self.wanted.needed) <= FEW_NAMES:
            if language not in self._may_define:
                self._may_define[language] = scan.may_define(self.wanted.needed)
            if not self._may_define[language](data):
                talks = scan.talks(data) if talks is None else talks
                if not talks:
                    return QUIET
                called = called_keys(data)
        return scan.facts(data, talks, called)
