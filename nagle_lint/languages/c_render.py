"""C's fixes as source text: MSG_MORE dropped from the last piece; two
write()/send() calls on one descriptor made one writev()."""

from __future__ import annotations

import re

from ..fixes import DROP_MORE, JOIN, SAFE, UNCORK, UNSAFE, Edit, Fix
from .base import descendants
from .render import Parsed, after, movable, next_statement, names_in, pauses, statements_between, step_in, without_flag

UIO = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*<sys/uio\.h>", re.MULTILINE)
PLAIN = frozenset({"identifier", "field_expression", "subscript_expression", "string_literal"})
# What a write may move past (see render.movable): expressions and declarations, where control stays.
SIMPLE = frozenset({"expression_statement", "declaration"})
BARRIERS = frozenset({"return_statement", "goto_statement", "break_statement", "continue_statement",
                      "compound_statement"})


def render(fe, data: bytes, proposals) -> list:
    parsed = Parsed(fe, data)
    kinds = {JOIN: _join, DROP_MORE: _drop_more, UNCORK: _uncork}
    return [kinds[p.kind](parsed, *p.sites) if p.kind in kinds else None for p in proposals]


def _operator(parsed: Parsed):
    return lambda n: parsed.text(n.child_by_field_name("operator"))


def _call(parsed: Parsed, site):
    """(call, name, argument nodes) at `site`, or None."""
    call = parsed.node_at(site, ("call_expression",))
    if call is None or call.child_by_field_name("function").type != "identifier":
        return None
    args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
    return call, parsed.text(call.child_by_field_name("function")), args


def _flags_at(cat, name: str) -> int | None:
    """Where a socket's own send takes its flags (see the catalogue's `flags_argument`)."""
    return cat.flags_argument.get(name, (None,))[0]


def _drop_more(parsed: Parsed, site, *_):
    found = _call(parsed, site)
    at = None if found is None else _flags_at(parsed.catalogue, found[1])
    if at is None or len(found[2]) <= at:
        return None
    flags = found[2][at]
    named = [f for f in parsed.catalogue.more_flags if f in parsed.text(flags)]
    rest = without_flag(parsed, flags, named[0], "binary_expression", _operator(parsed)) if len(named) == 1 else None
    if rest is None:
        return None
    return Fix("send the last piece without MSG_MORE", SAFE, (Edit(flags.start_byte, flags.end_byte, rest or "0"),))


class _Piece:
    """One write(fd, buf, n) or send(fd, buf, n, 0) that is a statement of
    its own (`write(...);`, `(void)write(...);`) or the test of an `if`
    without `else` that compares its result (`if (write(...) != n) ...`)."""

    def __init__(self, parsed: Parsed, call, args):
        self.call, self.fd, self.buf, self.n = call, parsed.text(args[0]), args[1], args[2]
        node = call.parent
        if node.type == "cast_expression" and parsed.text(node.child_by_field_name("type")) == "void":
            node = node.parent
        self.test = None
        if node.type == "binary_expression" and node.child_by_field_name("left") == call:
            self.test, node = node, node.parent
            if node.type != "parenthesized_expression" or node.parent.type != "if_statement" \
                    or node.parent.child_by_field_name("alternative") is not None:
                raise ValueError
            node = node.parent
        elif node.type != "expression_statement":
            raise ValueError
        self.statement = node
        if node.parent is None or node.parent.type != "compound_statement":
            raise ValueError

    def compared(self, parsed: Parsed):
        """(operator, the length compared against or None, its cast) of an `if`'s test."""
        op = parsed.text(self.test.child_by_field_name("operator"))
        right = self.test.child_by_field_name("right")
        cast = ""
        if right.type == "cast_expression":
            cast = "(" + parsed.text(right.child_by_field_name("type")) + ")"
            right = right.child_by_field_name("value")
        length = _bare(parsed, right) == _bare(parsed, self.n)
        return op, length, cast, parsed.text(self.test.child_by_field_name("right"))


def _bare(parsed: Parsed, node) -> str:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return "".join(parsed.text(node).split())


def _piece(parsed: Parsed, site):
    found = _call(parsed, site)
    if found is None:
        return None
    call, name, args = found
    cat = parsed.catalogue
    flags, count = _flags_at(cat, name), cat.count_argument.get(name)  # a socket's own send: its flags must be none
    if name not in cat.joinable_sends or count is None or len(args) != (count + 1 if flags is None else flags + 1) \
            or flags is not None and parsed.text(args[flags]) != "0":
        return None
    try:
        return _Piece(parsed, call, args)
    except ValueError:
        return None


def _join(parsed: Parsed, first_site, second_site):
    first, second = _piece(parsed, first_site), _piece(parsed, second_site)
    if first is None or second is None or first.fd != second.fd:
        return None
    between = _between(parsed, first, second)
    combined = None if between is None else _combined(parsed, first, second, f"writev({first.fd}, iov, 2)")
    if combined is None:
        return None
    statement = first.statement
    indent = parsed.indent(statement)
    inner = step_in(indent)
    iov = ", ".join(f"{{{_base(parsed, p.buf)}, {parsed.text(p.n)}}}" for p in (first, second))
    block = (f"{{\n{inner}struct iovec iov[2] = {{{iov}}};\n{inner}"
             + combined.replace("\n", "\n" + inner[len(indent):]) + f"\n{indent}}}")
    edits = [parsed.delete(first.statement), Edit(second.statement.start_byte, second.statement.end_byte, block)]
    include = _include(parsed)
    if include is not None:
        edits.insert(0, include)
    moved = f", after the {len(between)} statement{'s' if len(between) != 1 else ''} between them" if between else ""
    return Fix(f"send both pieces with one writev({first.fd}, iov, 2){moved}: a partial write or an error now "
               "concerns the whole message", UNSAFE, tuple(edits))


def _between(parsed: Parsed, first: _Piece, second: _Piece) -> list | None:
    """The statements between two pieces, where they may stay before the
    joined write (they leave the descriptor and the first piece alone, and
    do not sleep); else None."""
    between = statements_between(first.statement, second.statement)
    reads = names_in(parsed, first.call, ("identifier", "field_identifier"))
    if between is None or pauses(parsed, between, parsed.catalogue.sleeps, "call_expression") \
            or not movable(parsed, between, SIMPLE, BARRIERS, reads):
        return None
    return between


def _combined(parsed: Parsed, first: _Piece, second: _Piece, gathered: str) -> str | None:
    """The first piece's statement with its write made `gathered`: two plain
    statements, or two `if`s that test their results alike (the test then
    compares against the sum of the lengths); else None."""
    statement = first.statement
    if first.test is None and second.test is None:
        return _replaced(parsed, statement, first.call, gathered)
    if first.test is None or second.test is None:
        return None
    (op, length, cast, right), other = first.compared(parsed), second.compared(parsed)
    if op != other[0] or length != other[1] or cast != other[2] or not length and right != other[3]:
        return None
    return _replaced(parsed, statement, first.test, f"{gathered} {op} " + (
        f"{cast}({parsed.text(first.n)} + {parsed.text(second.n)})" if length else right))


def _replaced(parsed: Parsed, statement, node, text: str) -> str:
    """The statement's text with `node` (inside it) replaced by `text`."""
    s, a, b = statement.start_byte, node.start_byte, node.end_byte
    return (parsed.data[s:a].decode("utf-8", "replace") + text
            + parsed.data[b:statement.end_byte].decode("utf-8", "replace"))


def _base(parsed: Parsed, buf) -> str:
    t = parsed.text(buf)
    return f"(void *){t}" if buf.type in PLAIN else f"(void *)({t})"


def _include(parsed: Parsed) -> Edit | None:
    """`#include <sys/uio.h>` after the file's last include at the top level, where it has none."""
    if UIO.search(parsed.data):
        return None
    includes = [n for n in parsed.root.named_children if n.type == "preproc_include"]
    at = parsed.line_end(includes[-1].end_byte - 1) if includes else 0
    return Edit(at, at, "#include <sys/uio.h>\n")


def _uncork(parsed: Parsed, cork_site, held_site):
    """`setsockopt(fd, IPPROTO_TCP, TCP_CORK, &on, sizeof on);` and, later in
    its block, the writes it holds: the cork turned off (`&(int){0}`) after
    the last write of their run."""
    cork, held = _call(parsed, cork_site), _piece(parsed, held_site)
    if cork is None or held is None or cork[1] != "setsockopt" or len(cork[2]) != 5 \
            or parsed.text(cork[2][0]) != held.fd:
        return None
    corked = _statement_of(cork[0])
    if corked is None or corked.parent != held.statement.parent:
        return None
    last = held.statement
    while (following := next_statement(last)) is not None and _piece_of(parsed, following, held.fd):
        last = following
    fd, level, option = (parsed.text(a) for a in cork[2][:3])
    release = f"setsockopt({fd}, {level}, {option}, &(int){{0}}, sizeof(int));"
    return Fix(f"turn the cork off after the last write of the message: {release}", UNSAFE, (after(parsed, last, release),))


def _statement_of(node):
    """The statement of the block that holds `node` (`if (setsockopt(...) < 0) die(...);` for its call),
    or None under a preprocessor conditional (the other branch may set another option)."""
    while node.parent is not None and node.parent.type != "compound_statement":
        node = node.parent
        if node.type.startswith("preproc"):
            return None
    return node


def _piece_of(parsed: Parsed, statement, fd: str) -> bool:
    """Whether `statement` is a write or send on `fd` (see _Piece)."""
    for node in descendants(statement):
        if node.type == "call_expression" and node.child_by_field_name("function").type == "identifier":
            args = [a for a in node.child_by_field_name("arguments").named_children if a.type != "comment"]
            if args and parsed.text(args[0]) == fd and parsed.text(node.child_by_field_name("function")) in parsed.catalogue.joinable_sends:
                try:
                    return _Piece(parsed, node, args).statement == statement
                except (ValueError, IndexError):
                    return False
    return False
