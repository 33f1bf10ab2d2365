"""C's byte scan: libc and OpenSSL sends, and function bodies from the braces."""

from __future__ import annotations

import re

from functools import cached_property, lru_cache

from .c_catalogue import C
from .scan import WORD_BYTES, FunctionTexts, PlainCalls, Scanner, escaped, stems


class CScanner(Scanner):
    catalogue = C
    target_is_receiver = False

    def code_only(self, data: bytes) -> bytes:
        return _COMMENTS_AND_STRINGS.sub(lambda m: b" " * len(m.group()), data)

    # -- derived from the catalogue ------------------------------------------

    @cached_property
    def read_calls(self) -> PlainCalls:
        """A file that reads may matter through the functions it calls: any
        function named like a descriptor's read (`recv_frame`) may be one."""
        c = self.catalogue
        return PlainCalls(b"|".join(escaped(stems(c.reads | c.gather_reads), rb"\w*") + escaped(c.stream_reads)))

    @cached_property
    def send_calls(self) -> PlainCalls:
        # A call through a function pointer (`c->send(...)`) is not a send the frontend knows.
        return PlainCalls(b"|".join(escaped(self.catalogue.all_sends | self.catalogue.stream_writes)))

    @cached_property
    def socket_sends(self) -> PlainCalls:
        return PlainCalls(b"|".join(escaped(self.catalogue.all_sends)))

    # A wrapper known by its name sends or reads only on a connection known to be TCP (see
    # `named_sends`), and only where no linted file defines it: an event, and a start, only in
    # a file that makes TCP connections (most such connections are known from where the file
    # makes them) and calls one it does not define itself.
    @cached_property
    def _named_starts(self) -> PlainCalls:
        return PlainCalls(self.sends_or_options.names, self.sends_or_options.words,
                          inner=_named(self.catalogue.named_sends))

    @cached_property
    def _named_send_calls(self) -> PlainCalls:
        return _named_calls(self.catalogue.named_sends)

    @cached_property
    def _named_calls(self) -> PlainCalls:
        return _named_calls(self.catalogue.named_sends | self.catalogue.named_reads)

    def _calls_named(self, data: bytes, pattern: PlainCalls) -> bool:
        """Whether the file makes TCP connections and calls a wrapper `pattern` finds that it
        does not define itself."""
        if not self.makes_tcp(data):
            return False
        c = self.catalogue
        names = {m.group().rstrip(b"( \t\r\n").decode() for m in pattern.finditer(data)} - c.all_sends - c.reads
        return bool(names) and bool(names - self.defines(data, names))

    @cached_property
    def _stream_types(self) -> tuple[bytes, ...]:
        return tuple(w.encode() for w in sorted(self.catalogue.plain_tcp_words) if w.startswith("SOCK_"))

    @staticmethod
    def last_statement(tail: bytes) -> bytes:
        """As a scanner's, without the preprocessor's lines before it (`#endif`)."""
        statement = Scanner.last_statement(tail)
        return b"\n".join(line for line in statement.split(b"\n") if not line.lstrip().startswith(b"#"))

    def makes_tcp(self, data: bytes) -> bool:
        """Whether the file makes TCP connections: it names a stream socket's type."""
        return any(t in data for t in self._stream_types)

    def starts_in(self, data: bytes) -> PlainCalls:
        found = self._named_starts if self._calls_named(data, self._named_send_calls) else self.sends_or_options
        return _with_names(self.with_option_tables(found, data), tuple(sorted(self.call_macros(data))))

    @cached_property
    def events(self) -> PlainCalls:
        """A call that may lower to an event, or one that makes a connection:
        a function without one is not worth lowering.  A function named like
        a call only sockets have (`send_frame`, `recv_all`) may wrap one."""
        c = self.catalogue
        calls = (c.all_sends | c.reads | c.gather_reads | c.handshakes | c.stream_writes | c.stream_reads | c.flushes | c.closes
                 | c.stream_closes | c.shutdowns | c.accepts | c.tcp_makers | c.option_setters | set(c.wrappers)
                 | set(c.buffer_setters) | c.binders)
        only = stems(c.socket_only)
        return PlainCalls(b"|".join(escaped(only, rb"\w*") + escaped(n for n in calls if not n.startswith(tuple(only)))))

    @cached_property
    def _macro_calls(self) -> frozenset[str]:
        # A descriptor's sends, reads and options (not stdio's writes, which a logging macro makes).
        c = self.catalogue
        return frozenset(c.all_sends | c.reads | c.gather_reads | c.shutdowns | c.option_setters)

    def call_macros(self, data: bytes) -> dict[str, tuple[tuple[str, ...], str]]:
        """The function-like macros of the file that stand for a send, a read or an option set
        on a descriptor (see `_call_macros`): a use of one is a call of what it stands for."""
        return _call_macros(data, self._macro_calls)

    @cached_property
    def _named_events(self) -> PlainCalls:
        return PlainCalls(self.events.names, inner=_named(self.catalogue.named_sends | self.catalogue.named_reads))

    def events_in(self, data: bytes) -> PlainCalls:
        found = self._named_events if self._calls_named(data, self._named_calls) else self.events
        return _with_names(found, tuple(sorted(self.call_macros(data))))

    def sends_in(self, data: bytes, min_confidence: str = "medium") -> bool:
        # stdio writes reach a socket only through a wrapper (fdopen()):
        # elsewhere their FILE* is at best a parameter of low confidence.
        if self.socket_sends.search(data) or self._calls_named(data, self._named_send_calls):
            return True
        return (min_confidence == "low" or any(w.encode() in data for w in self.catalogue.wrappers)) \
            and bool(self.send_calls.search(data))

    def through_members(self, texts, data: bytes, functions) -> None:
        """A call through a member (`t->ops->send(...)`) calls those of `functions` the file
        assigns to that member (see `members_assigned`), where they send or read themselves
        (a transport's operations): followed into every handler a member holds (an event
        loop's), the analysis of nginx took five times as long, for no finding."""
        io = self._io(texts, data)
        assigned = members_assigned(data, {q.rsplit(".", 1)[-1] for q in functions & io}) if io else None
        if assigned:
            texts.add_member_calls(assigned)

    def _io(self, texts, data: bytes) -> set[str]:
        """The functions whose own text sends or reads."""
        if not self.send_calls.search(data) and not self.read_calls.search(data):
            return set()
        return texts.matching(self.send_calls) | texts.matching(self.read_calls)

    def op_tables(self, data: bytes) -> dict[str, set[str]]:
        """Member -> the functions of the file that send or read themselves and that an
        operations table of the file holds in it (see `members_assigned`): what the frontend
        calls through the member, as `through_members` does here."""
        return _op_tables(self, data)

    def byte_functions(self, data: bytes):
        """(name, start, end, None) of every function definition, read from the
        bytes (comments, strings and preprocessor lines skipped, `#if 0`
        blocks left out); None when the braces do not tell for sure (a
        body of several lines whose closing brace is not at the margin,
        braces left unbalanced).  Of an `#if` with other branches, the
        braces of the first branch count: each other branch starts from the
        state at the `#if` (`#ifdef A` `if (a) {` `#else` `if (b) {` `#endif`
        opens one block, not two)."""
        if data.count(b"\r") != data.count(b"\r\n"):
            return None  # lines ended by a lone CR: a preprocessor line would run to the end
        return _Braces(data).functions()


def _named_calls(words) -> PlainCalls:
    """Calls of `words` themselves and of the wrappers named for them (see `_named`)."""
    return PlainCalls(b"|".join(escaped(words)), inner=_named(words))


# What stands before a function's name in an operations table's initializer: `{ .send = `,
# `, .send = &` (read on the bytes just before the name). A member assigned as the program runs
# (`c->read->handler = ngx_http_ssl_handshake;`) is an event handler's slot, refilled from state
# to state: followed, nginx's analysis took five times as long, for no finding.
_MEMBER_BEFORE = re.compile(rb"[{,][ \t\r\n]*\.[ \t]*([A-Za-z_]\w*)[ \t]*=[ \t]*&?[ \t]*\Z")
# What may follow it: the end of the initializer's entry.
_ENTRY_END = re.compile(rb"[ \t\r\n]*[,}]")


def members_assigned(data: bytes, names) -> dict[str, set[str]]:
    """Member -> those of the function `names` that an operations table of the file holds
    in it (`{ .send = tcp_send, .recv = tcp_recv }`, or by position, `{ tcp_send, tcp_recv }`,
    where the file declares the table's struct: see `_Positions`): a call through that member
    may call them. Each name is found as a literal (a pattern of every entry, tried at each `.`
    of a file, took as long as the scan)."""
    found: dict[str, set[str]] = {}
    positions = _Positions(data)
    for name in names:
        word = name.encode()
        at = data.find(word)
        while at >= 0:
            end = at + len(word)
            if (at == 0 or data[at - 1] not in WORD_BYTES) and _ENTRY_END.match(data, end):
                member = _MEMBER_BEFORE.search(data, max(0, at - 120), at)
                held = member.group(1).decode("latin-1") if member is not None else positions.member_at(at)
                if held is not None:
                    found.setdefault(held, set()).add(name)
            at = data.find(word, end)
    return found


class _Positions:
    """The member a positional entry of an operations table initializes (`{ "tcp", tcp_send,
    tcp_recv }`), by the order of the members of the table's struct, where the file declares
    it (`struct ops { const char *name; ssize_t (*send)(...); ... };`, or a typedef of it).
    Read on the bytes with comments and strings blanked, only once an entry needs it."""

    def __init__(self, data: bytes):
        self.data = data
        self._layouts: dict[bytes, tuple[bytes, ...] | None] = {}

    @property
    def code(self) -> bytes:
        return _blanked(self.data)

    def member_at(self, at: int) -> str | None:
        code = self.code
        if not _POSITIONAL_BEFORE.search(code, max(0, at - 120), at):
            return None
        opening, index = _entry_index(code, at)
        if opening is None:
            return None
        head = _TABLE_HEAD.search(code, max(0, opening - 200), opening + 1)
        members = self.layout(head.group(1)) if head is not None else None
        return members[index].decode("latin-1") if members is not None and index < len(members) else None

    def layout(self, typ: bytes) -> tuple[bytes, ...] | None:
        """The members of struct `typ` (a tag or a typedef's name) in order, where the file
        declares them plainly (no nested struct, no preprocessor line among them)."""
        if typ not in self._layouts:
            self._layouts[typ] = None  # a typedef naming itself ends here
            self._layouts[typ] = _layout(self, typ)
        return self._layouts[typ]


@lru_cache(maxsize=4)
def _blanked(data: bytes) -> bytes:
    """The file with its comments and strings blanked, worked out once for the last few
    files: the choice of functions to lower and the lowering each read its tables."""
    return _COMMENTS_AND_STRINGS.sub(lambda m: b" " * len(m.group()), data)


def _layout(positions: _Positions, typ: bytes) -> tuple[bytes, ...] | None:
    code, name = positions.code, re.escape(typ)
    body = _word_led(rb"struct\s+" + name + rb"\s*\{", code) or \
        _word_led(rb"typedef\s+struct\s*\w*\s*\{(?=[^{}]*\}\s*" + name + rb"\s*;)", code)
    if body is None:
        alias = _word_led(rb"typedef\s+struct\s+(\w+)\s+" + name + rb"\s*;", code)
        return positions.layout(alias.group(1)) if alias is not None else None
    end = code.find(b"}", body.end())
    inside = code[body.end():end]
    if end < 0 or b"{" in inside or b"#" in inside:
        return None
    members = []
    for declaration in inside.split(b";")[:-1]:
        pointer = _FUNCTION_POINTER.search(declaration)
        if pointer is not None:
            members.append(pointer.group(1))
            continue
        for declarator in declaration.split(b","):
            last = _DECLARED_NAME.search(declarator)
            if last is None:
                return None
            members.append(last.group(1))
    return tuple(members)


def _word_led(pattern: bytes, code: bytes) -> re.Match | None:
    r"""The first match of `pattern` (led by a keyword) that starts a word, as `\b` before it
    would find: the keyword is searched as a literal, fast (a pattern led by `\b` is tried
    at every byte: a millisecond in a big file, for each struct a table names)."""
    compiled, at = re.compile(pattern), 0
    while (m := compiled.search(code, at)) is not None:
        if m.start() == 0 or code[m.start() - 1] not in WORD_BYTES:
            return m
        at = m.start() + 1
    return None


def _entry_index(code: bytes, at: int) -> tuple[int | None, int]:
    """Where the initializer holding the entry at `at` opens, and the entry's index in it
    (None where the entry is in an argument list, a nested initializer, or after a
    designated one, whose position the next entries follow)."""
    depth, index, pos = 0, 0, at - 1
    while pos >= max(0, at - 8192):
        c = code[pos]
        if c in b")]}":
            depth += 1
        elif c in b"([":
            if depth == 0:
                return None, 0
            depth -= 1
        elif c == 123:  # {
            if depth == 0:
                return (pos, index) if _DESIGNATED.search(code, pos, at) is None else (None, 0)
            depth -= 1
        elif c == 44 and depth == 0:  # ,
            index += 1
        pos -= 1
    return None, 0


# Before a positional entry: the initializer's opening or the entry before it.
_POSITIONAL_BEFORE = re.compile(rb"[{,][ \t\r\n]*&?[ \t]*\Z")
# The declaration an initializer belongs to: its type (a struct's tag, or a typedef's name), its
# name, `=` and the opening brace (not an array's: each entry of that is an initializer of its own).
_TABLE_HEAD = re.compile(rb"(?:\bstruct\s+)?\b([A-Za-z_]\w*)\s+(?:const\s+)?[A-Za-z_]\w*\s*=\s*\{\Z")
_FUNCTION_POINTER = re.compile(rb"\(\s*\*\s*([A-Za-z_]\w*)\s*\)\s*\(")
_DECLARED_NAME = re.compile(rb"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?::\s*\d+\s*)?\Z")
_DESIGNATED = re.compile(rb"[{,]\s*[.\[]")


@lru_cache(maxsize=4)
def _op_tables(scan: CScanner, data: bytes) -> dict[str, set[str]]:
    return _held_io(scan, data, scan.functions_of(data))


def top_level_op_tables(scan: CScanner, data: bytes) -> dict[str, set[str]]:
    """`op_tables` of the tables outside the functions (a `static const` table: those other
    files' calls may reach), asked of every file lowered: only the functions named as an entry
    there have their texts searched for sends."""
    spans = scan.functions_of(data)
    if not spans:
        return {}
    ends = [0] + [b for _, _, b, _ in spans]
    starts = [a for _, a, _, _ in spans] + [len(data)]
    entries = {m.group(1) for end, start in zip(ends, starts) if start > end
               for m in _ENTRY_NAMES.finditer(data, end, start)}
    return _held_io(scan, data, [span for span in spans if span[0].rsplit(".", 1)[-1].encode() in entries])


def _held_io(scan: CScanner, data: bytes, spans) -> dict[str, set[str]]:
    """`op_tables` of the functions at `spans` (none where the braces do not tell them apart)."""
    io = scan._io(FunctionTexts([(q, a, b) for q, a, b, _ in spans], data), data) if spans else None
    return members_assigned(data, {q.rsplit(".", 1)[-1] for q in io}) if io else {}


# A name that may be an initializer's entry: after its opening or a comma, designated or not,
# and before a comma or its end.
_ENTRY_NAMES = re.compile(rb"[{,][ \t\r\n]*(?:\.[ \t]*\w+[ \t]*=[ \t]*)?&?[ \t]*([A-Za-z_]\w*)(?=[ \t\r\n]*[,}])")


def _named(words) -> tuple[tuple[bytes, bytes], ...]:
    """(regex, anchor) of the names that hold one of `words` as a word after their first, as
    the frontend reads them (`bt_send_nosigpipe`, `netSend`; not `sendfile`, `send_connack`
    nor a macro's capitals): see `named_sends`."""
    found = []
    for w in sorted(words):
        cap = w.capitalize()
        found += [(rb"[A-Za-z]\w*?_" + w.encode() + rb"(?![a-z])\w*", b"_" + w.encode()),
                  (rb"[A-Za-z]\w*?[a-z0-9]" + cap.encode() + rb"(?![a-z])\w*", cap.encode())]
    return tuple(found)


class _Unsure(Exception):
    """The braces do not tell where the functions are."""


class _Braces:
    """`CScanner.byte_functions`'s walk over a file's directives and braces."""

    def __init__(self, data: bytes):
        self.data = data
        self.found: list[tuple[str, int, int, None]] = []
        self.stack: list[bool] = []  # per open block: True for a function's body, False for another
        self.name: str | None = None  # the function whose body is open, and where its header starts
        self.start = 0
        self.top_end = 0  # where the last top-level declaration or definition ended
        self.skip = 0  # how deep in an `#if 0` (its nested conditionals count)
        # Per open `#if`: None for an `#if 0`, else [the state at the #if, at the end of its first branch].
        self.branches: list = []

    def functions(self) -> list[tuple[str, int, int, None]] | None:
        step = {ord("#"): self.directive, ord("{"): self.open, ord("}"): self.close}
        try:
            for at, end in _directives_and_braces(self.data):
                step[self.data[at]](at, end)
        except _Unsure:
            return None
        return None if self.stack else self.found

    def directive(self, at: int, end: int) -> None:
        if not self.stack:
            self.top_end = end
        directive = _DIRECTIVE.match(self.data, at, end)
        word = directive.group(1) if directive else b""
        if self.skip:
            self.skipped(word)
        elif word == b"if" and IF_ZERO.match(self.data, at, end):
            self.skip = 1
            self.branches.append(None)
        elif word.startswith(b"if"):
            self.branches.append([self.state(), None])
        elif word in (b"else", b"elif"):
            self.other_branch()
        elif word == b"endif" and self.branches:
            entry = self.branches.pop()
            if entry is not None and entry[1] is not None:
                self.stack, self.name, self.start = entry[1]

    def skipped(self, word: bytes) -> None:
        """A directive within an `#if 0`."""
        if word.startswith(b"if"):
            self.skip += 1
        elif word == b"endif":
            self.skip -= 1
            if not self.skip:
                self.branches.pop()
        elif self.skip == 1 and word in (b"else", b"elif"):
            self.skip = 0  # the branch after an `#if 0` counts

    def other_branch(self) -> None:
        """An `#else` or `#elif`: the braces of the first branch count, each other branch
        starts from the state at the `#if`."""
        if not self.branches or self.branches[-1] is None:
            return
        at_if, first_end = self.branches[-1]
        if first_end is None:
            self.branches[-1][1] = self.state()
        self.stack, self.name, self.start = at_if[0][:], at_if[1], at_if[2]

    def state(self) -> tuple[list[bool], str | None, int]:
        return self.stack[:], self.name, self.start

    def open(self, at: int, end: int) -> None:
        if self.stack:
            self.stack.append(False)
            return
        header_start = _header_start(self.data, self.top_end, at)
        header = _COMMENTS.sub(b" ", self.data[header_start:at])
        if header.rstrip().endswith(b'extern "C"'):
            return  # a linkage block: what it holds is at the top level
        self.name, self.start = _function_name(header), header_start
        self.stack.append(self.name is not None)

    def close(self, at: int, end: int) -> None:
        if not self.stack:  # a closing brace at the top level: only a linkage block's may be
            if self.data.rfind(b'extern "C"', 0, at) < 0:
                raise _Unsure
            self.top_end = end
            return
        was_function = self.stack.pop()
        if self.stack:
            return
        self.top_end = end
        if was_function:
            line_start = self.data.rfind(b"\n", 0, at) + 1
            if line_start > self.start and at != line_start:
                raise _Unsure  # a body of many lines that does not end at the margin
            if not self.skip:
                self.found.append((self.name, self.start, end, None))


def _directives_and_braces(data: bytes):
    """(start, end) of each preprocessor line and brace, with comments and
    strings passed over.  A search for the bytes that can start any of them
    leaps over the rest (far faster than one pattern tried at every byte);
    a `#` counts only after blanks at its line's start."""
    pos, search = 0, _TOKEN_START.search
    while m := search(data, pos):
        at = m.start()
        first = data[at]
        if first == 123 or first == 125:  # a brace
            pos = at + 1
            yield at, pos
            continue
        token = _TOKEN_REST[first].match(data, at)
        if token is None and data.startswith(b"/*", at):
            raise _Unsure  # a comment never closed: a parser takes it for other tokens, and finds functions in it
        if token is None or first == 35 and data[data.rfind(b"\n", 0, at) + 1:at].strip(b" \t"):
            pos = at + 1  # not a token after all (a division, an unclosed quote, a `#` within a line)
            continue
        pos = token.end()
        if first == 35:
            yield at, pos


_COMMENT = rb"/\*.*?\*/|//[^\n]*"
_STRING = rb'"(?:\\.|[^"\\\n])*"'
_CHARACTER = rb"'(?:\\.|[^'\\\n])*'"
_COMMENTS = re.compile(_COMMENT, re.S)
_TOKEN_START = re.compile(rb'[/"\'#{}]')
# A preprocessor line runs on after a backslash, and through a comment that
# ends on a later line (`#define N 34  /* ... \n ... */`): the next
# declaration starts after it.
_DIRECTIVE_LINE = re.compile(rb"#(?:[^\n\\/\"']+|\\\r?\n|\\.|" + _COMMENT + rb"|" + _STRING + rb"|" + _CHARACTER +
                             rb"|[/\"'\\])*", re.S)
_TOKEN_REST = {ord("/"): _COMMENTS, ord('"'): re.compile(_STRING), ord("'"): re.compile(_CHARACTER),
               ord("#"): _DIRECTIVE_LINE}
_BLANKS = re.compile(rb"(?:\s+|" + _COMMENT + rb")*", re.S)
_DIRECTIVE = re.compile(rb"[ \t]*#[ \t]*(\w*)")
# `#if 0` (or `#if (0)`), a comment after it: an arm no build compiles.  Matched on
# a directive's text, which may end with its newline and run over several lines.
IF_ZERO = re.compile(rb"[ \t]*#[ \t]*if[ \t]+\(?0\)?[ \t]*(?:/[*/].*)?$", re.S)
_COMMENTS_AND_STRINGS = re.compile(b"|".join((_COMMENT, _STRING, _CHARACTER)), re.S)
_HEADER_PARTS = re.compile(rb"([A-Za-z_]\w*)?\s*\(|\)")
_NAME_BEFORE_PARENTHESIS = re.compile(rb"([A-Za-z_]\w*)?\s*\(")
_NOT_NAMES = {b"__attribute__", b"__declspec", b"alignas", b"_Alignas", b"__asm__", b"asm", b"sizeof"}


def _header_start(data: bytes, top_end: int, brace: int) -> int:
    """Where the declaration that a top-level brace opens starts: past the
    last semicolon before it (not one in a comment or a string), the blanks
    and the comments."""
    region = data[top_end:brace]
    if b";" in region:
        top_end += _COMMENTS_AND_STRINGS.sub(lambda m: b" " * len(m.group()), region).rfind(b";") + 1
    return _BLANKS.match(data, top_end).end()


def _function_name(header: bytes) -> str | None:
    """The name a function definition's header declares (`static int\nfoo(int a)`,
    `NO_SANITIZE("x") int foo(int a)`): the last name before a parenthesis
    outside parentheses, else the first name before one; None when the
    block is not a function's body (a struct, an initializer)."""
    if not header.rstrip().endswith(b")"):
        return None
    if header.count(b"(") == 1:  # most headers: the name before the only parenthesis (found at once)
        name = _NAME_BEFORE_PARENTHESIS.search(header).group(1)
        return name.decode() if name and name not in _NOT_NAMES else None
    outer = first = None
    depth = 0
    for m in _HEADER_PARTS.finditer(header):
        if m.group() == b")":
            depth = max(0, depth - 1)
            continue
        if m.group(1) and m.group(1) not in _NOT_NAMES:
            first = first or m.group(1)
            outer = m.group(1) if not depth else outer
        depth += 1
    name = outer or first
    return name.decode() if name else None


@lru_cache(maxsize=16)
def _with_names(calls: PlainCalls, names: tuple[str, ...]) -> PlainCalls:
    """`calls`, and calls of `names` too."""
    if not names:
        return calls
    return PlainCalls(b"|".join([calls.names, *escaped(names)]), calls.words, calls.inner)


# A function-like macro's name and parameters: `define SEND_STR(fd, s)`, led by its literal, which
# the regex engine finds fast (one led by `^` is tried at every byte); its body runs to the end of
# its line and of each line a backslash continues.
_MACRO_HEAD = re.compile(rb"define[ \t]+(\w+)\(([\w \t,]*)\)")
_DIRECTIVE_START = re.compile(rb"[ \t]*#[ \t]*")
_CALLED = re.compile(r"(\w+)\s*\(")


@lru_cache(maxsize=4)
def _call_macros(data: bytes, callees: frozenset[str]) -> dict[str, tuple[tuple[str, ...], str]]:
    """name -> (parameters, body) of the function-like macros the file defines whose body calls
    one of `callees` (a wrapper of a send or a read), but for those that paste or quote their
    arguments (`#`, `##`), or name a callee themselves (`#define send(...) send(...)`)."""
    found = {}
    if b"define" not in data:
        return found
    for m in _MACRO_HEAD.finditer(data):
        if not _DIRECTIVE_START.fullmatch(data, data.rfind(b"\n", 0, m.start()) + 1, m.start()):
            continue  # not a `#define` line
        end = data.find(b"\n", m.end())
        while end > 0 and (data[end - 1:end] == b"\\" or data[end - 2:end] == b"\\\r"):
            end = data.find(b"\n", end + 1)
        name = m.group(1).decode("latin-1")
        body = data[m.end():end if end >= 0 else len(data)].replace(b"\\\r\n", b" ").replace(b"\\\n", b" ")
        body = body.decode("utf-8", "replace").strip()
        called = set(_CALLED.findall(body))
        if "#" in body or name in callees or name in called or not called & callees:
            continue
        found[name] = (tuple(p.strip() for p in m.group(2).decode("latin-1").split(",") if p.strip()), body)
    return found
