"""What the three frontends share: parsing, positions, the statement walk and
the bookkeeping of connections.  A language module supplies its node names
and the meaning of its calls; everything else is here, once.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field, replace
from functools import cached_property, wraps

from ..model import (
    blocks, lineage, record, walk,
    CALL_RESULT, EXISTS, HOLDS, ONE, SMALL, UNKNOWN, UNPACKED,
    Bind, Break, Call, ConnInfo, Continue, Failed, FileModel, Flush, Function, If, Loop,
    Pause, Push, Recv, Return, Send, SetOption, Site, Try,
)
from ..site import CONFIDENCES
from .catalogue import Catalogue
from .choice import Choice, choose, partial, short_name as _short
from .scan import Scanner, n_is_root, socket_like, whole_words

TYPE_CHECKING = False  # typing's own, without importing typing
if TYPE_CHECKING:
    from .edited import Earlier  # an editor's buffer lowered again: loaded only there
    from .catalogue import Conversions

# --- abstract values --------------------------------------------------------


@record
class Handle:
    """An expression that reaches connection `key`: the socket itself, or a
    stream over it.  `buffered` writes wait for a flush; `autoflush` streams
    flush on println/printf/format."""

    key: str
    buffered: bool = False
    autoflush: bool = False
    library: str | None = None  # the library object (see `catalogue.Library`) whose methods it answers
    made_by: str | None = None  # the function whose result it is (`t = make()`: see `model.MADE_BY`)
    # The connection keys that call was given: a test of the result for failure
    # (`n = net_write(c, ...); if (n < 1)`) tells it failed on them (see `Failed.call`).
    given: tuple[str, ...] = ()


@record
class Const:
    value: object


@record
class Pair:
    """A tuple such as accept()'s (conn, addr)."""

    items: tuple


@record
class Watched:
    """A list naming connections (`[sock]`), as handed to a wait for
    readability (`select.select([sock], [], [])`)."""

    keys: tuple


@record
class Sent:
    """The result of a send on connection `conn` (`n = send(fd, ...)`): a
    count, not a connection; testing it for failure (`if (n < 0)`) is
    testing the send."""

    conn: str


@record
class Received:
    """The result of a read on connection `conn` (`n = read(fd, buf, ...)`):
    how much the peer sent, not a connection; a loop bounded by it goes
    through what was read (see `Loop.answers`)."""

    conn: str


@record
class FromRead:
    """A value worked out from what reads on `conns` returned (`count = data[0]`,
    `n = int(line)`): neither a connection nor the read's own result (testing it
    tests no read), but a loop bounded by it goes through what was read too."""

    conns: frozenset[str]


@record
class Fresh:
    """A connection just made (socket(), accept(), new Socket()); it takes the
    name it is assigned to."""

    tcp: bool | None
    confidence: str
    library: str | None = None  # made by a library (see `catalogue.Library`)


@dataclass(slots=True)
class Returned:
    """What a call to a function of the linted files gives back: maybe a
    connection (a factory); it is bound where the result gets a name."""

    call: Call
    emitted: bool


@record
class Obj:
    """An object of a class that may be defined in a linted file; `init` is the
    constructor call still to be made once the object has a name."""

    cls: str
    init: tuple | None = None  # (callee, args, consts, site, names, types, classes, keeps, made)


_NONES = (None,) * 256  # no argument's class known (see `Call.classes`)

# Seconds after which any receiver has acknowledged (the longest delayed-ACK
# timer, Windows' and macOS's): a sleep this long leaves nothing held.
ACKED_AFTER = 0.2
NO_VALUE = object()  # an expression a frontend has lowered whose value is unknown: do not walk it again
NOT_CONN = object()  # a file, a pipe, an in-memory buffer, a datagram socket: never a connection

# The words (in identifiers, lower-cased, without underscores) that name each
# option as a user setting (`conf->tcp_nodelay`, `isTcpNoDelay()`), and the
# option constants themselves, which do not.
OPTION_WORDS = {"nodelay": ("nodelay", "nagle"), "cork": ("cork", "nopush")}
OPTION_CONSTANTS = {"TCP_NODELAY", "TCP_CORK", "TCP_NOPUSH"}
# Interactive protocols: each keystroke or screen event must leave at once, so
# TCP_NODELAY is their nature.  A connection speaks one when the function, its
# class or its file is named for it (ChannelX11, ssh_connect, telnet.c), or
# the file imports a module named for it (`import serial.rfc2217`).
# RFC 2217 is telnet's serial port option: a remote serial console.
INTERACTIVE_PROTOCOLS = {"ssh", "sshd", "x11", "vnc", "rfb", "telnet", "telnetd", "rlogin", "rdp", "rfc2217"}
# Or when the file writes the protocol's identification string as a literal:
# SSH's version exchange (RFC 4253: "SSH-2.0-..."), VNC's ("RFB 003.008").
INTERACTIVE_BANNERS = re.compile(rb'"(?:SSH-(?:2\.0|1\.99)-|RFB \d{3}\.\d{3})')



@dataclass(slots=True)
class Budget:
    """A file's time budget: `timeout` seconds (named in messages), spent at
    `deadline` (time.monotonic(); None: no limit); `notes` take what was
    left out of the model meanwhile (functions nested too deeply)."""

    timeout: float
    deadline: float | None
    notes: list = field(default_factory=list)


# --- positions --------------------------------------------------------------


class Source:
    """The file's bytes, with character columns computed from byte columns."""

    def __init__(self, data: bytes):
        self.data = data

    @cached_property
    def lines(self) -> list[bytes]:
        return self.data.split(b"\n")

    def column(self, row: int, byte_col: int) -> int:
        if row >= len(self.lines):
            return byte_col + 1
        line = self.lines[row]
        if line[:byte_col].isascii():
            return byte_col + 1
        if len(line) < 256:
            return len(line[:byte_col].decode("utf-8", "replace")) + 1
        return self._columns(row)[min(byte_col, len(line))] + 1

    def _columns(self, row: int) -> list[int]:
        """Byte offset -> character offset for one long non-ASCII line, worked
        out once (decoding the prefix for every node would be quadratic)."""
        cache = self.__dict__.setdefault("_column_cache", {})
        if row not in cache:
            from itertools import accumulate

            line = self.lines[row]
            # A character starts at every byte that is not a UTF-8 continuation byte.
            cache[row] = [0, *accumulate((b & 0xC0) != 0x80 for b in line)]
        return cache[row]

    @cached_property
    def ascii(self) -> bool:
        return self.data.isascii()

    def site(self, node) -> Site:
        (r1, c1), (r2, c2) = node.start_point, node.end_point
        if self.ascii:  # most files: a character is a byte
            return Site(r1 + 1, c1 + 1, r2 + 1, c2 + 1)
        return Site(r1 + 1, self.column(r1, c1), r2 + 1, self.column(r2, c2))


def raw(node) -> bytes:
    return node.text


def text(node) -> str:
    return node.text.decode("utf-8", "replace") if node is not None else ""


def _last_name(path: str) -> str:
    """`sock` of `self.sock`, `this.sock`, `c->fd`."""
    return re.split(r"\.|->", path)[-1]


def _unwrapped(node):
    """A condition without the parentheses around it."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def compared(cond, operators: dict) -> tuple | None:
    """(the operand, the truth `operators` gives) of a comparison of a name
    or member with a constant: `operators` maps (operator, constant) to the
    truth where the connection exists."""
    parts = _comparison(cond)
    if parts is None:
        return None
    left, op, right = parts
    present = operators.get((op, compact(right)))
    return (left, present) if present is not None else None


def _comparison(cond) -> tuple | None:
    """(left, operator, right) of a comparison of two operands, or None."""
    if cond.type not in ("binary_expression", "comparison_operator") or cond.named_child_count != 2:
        return None
    left, right = cond.named_children
    return left, " ".join(text(c) for c in cond.children if not c.is_named), right


def compact(node) -> str:
    return "".join(text(node).split())


# A constant a result is returned as or compared with: a whole number, or a name in capitals (a
# macro, an enumerator: `OK`, `NGX_ERROR`).
_CONSTANT = re.compile(r"(-?\d+)|[A-Z][A-Z0-9_]*")
_FLIPPED = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}


def constant_of(node) -> int | str | None:
    """The constant `node` is (see `_CONSTANT`): a number, or the name as the code spells it."""
    spelled = compact(_unwrapped(node)) if node is not None else ""
    m = _CONSTANT.fullmatch(spelled)
    return None if m is None else int(spelled) if m.group(1) else spelled


def descendants(node, into=None):
    """`node` and the named nodes below it, depth first; where `into(n)` is
    false, nothing below `n`."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        if into is None or into(n):
            todo.extend(n.named_children)


def _called_name(call) -> str:
    """The last part of the name a call is made by (`a.getsockname()` -> `getsockname`)."""
    callee = call.child_by_field_name("function") or call.child_by_field_name("name")
    return text(callee).rsplit(".", 1)[-1] if callee is not None else ""


def _assigned_to(node):
    """The node the value of `node` is given to (`addr = a.getsockname()`), or None."""
    parent = node.parent
    if parent is None:
        return None
    for value, target in (("right", "left"), ("value", "declarator")):
        if parent.child_by_field_name(value) == node:
            return parent.child_by_field_name(target)
    return None


def _connects_to_own_address(low) -> bool:
    """See `Lowering.makes_local_pair`: a connect's address is an own-address
    getter's call, or a name one filled or was given, and the function accepts."""
    cat = low.fe.catalogue
    calls = [n for n in descendants(low.node) if n.type in low.fe.call_types] if cat.own_address_getters else []
    getters = [n for n in calls if _called_name(n) in cat.own_address_getters]
    if not getters or not any(_called_name(n) in cat.accepts for n in calls):
        return False
    held = _own_addresses(low, getters)
    return any(n in getters or n.type == "identifier" and text(n) in held
               for address in _connected_addresses(low, calls) for n in descendants(address))


def _argument(low, call, at: int):
    args = low.args(call.child_by_field_name("arguments"))
    return args[at] if at < len(args) else None


def _connected_addresses(low, calls):
    """The address argument of each of `calls` that connects a socket."""
    for c in calls:
        at = low.fe.catalogue.connects.get(_called_name(c))
        address = _argument(low, c, at) if at is not None else None
        if address is not None:
            yield address


def _own_addresses(low, getters) -> set[str]:
    """The names an own-address getter's call filled (`getsockname(fd, &addr, &len)`) or
    was given to (`addr = sock.getsockname()`)."""
    held = set()
    for g in getters:
        at = low.fe.catalogue.own_address_getters[_called_name(g)]
        holder = _assigned_to(g) if at is None else _argument(low, g, at)
        if holder is not None:
            held.update(text(n) for n in descendants(holder) if n.type == "identifier")
    return held


# --- the frontend -----------------------------------------------------------


class Frontend:
    """One language.  Subclasses set the class attributes (the statement and
    value tables among them) and implement `functions`, `call` and
    `declare_params`; the language's byte scan is `scan`."""

    name = ""
    catalogue: Catalogue  # what the language's libraries do (see catalogue.py)
    grammar_package = ""  # the tree-sitter grammar's package (tree_sitter_c)
    builtins: frozenset = frozenset()  # functions of the language itself: never looked for in another file
    # Two functions of one name in a file are alternatives (only one is
    # compiled): a call to that name is then as unknown as a call to a name
    # two files define.
    same_name_alternatives = False
    # A nested class is named by its simple name inside the classes around it (Java's
    # `new Handler(..)` in a method of `Server` makes a `Server.Handler`): see Project.resolve.
    nested_by_simple_name = False
    # Methods of one name told apart by their parameters (Java's), and how an argument
    # converts to a parameter's type: see Project.resolve.  None: no overloads.
    conversions: "Conversions | None" = None
    # Binding a name makes it a local variable (Python), else only a
    # declaration does (see `Lowering.declared`).
    binding_declares = False
    # A structure holding connections is passed to functions of other files as
    # a pointer (C's `struct conn *`): a call given one is kept (see `Lowering._holds_conns`).
    members_passed = False
    # Variables have no declared types (Python's): one this function already
    # used as a connection is passed to other files' functions as one (see
    # `Lowering._used_as_conn`).
    used_conns_passed = False
    comment_query = "(comment) @c"
    line_comment = "//"  # what starts a comment to the end of the line (a suppression written in)
    idioms: dict[str, str] = {}

    # Node names used by the shared expression walk.
    call_types: frozenset = frozenset()
    skip_types: frozenset = frozenset()  # nested functions, lambdas, classes
    wrapper_types: frozenset = frozenset({"parenthesized_expression"})
    # Leaves (no children) whose lowering does more than give a value; any
    # other leaf is passed over where its value is not used.
    live_leaf_types: frozenset = frozenset()
    tuple_types: frozenset = frozenset()
    # The literals an option table is written in (`(IPPROTO_TCP, TCP_NODELAY, 1)`,
    # `{IPPROTO_TCP, TCP_NODELAY, 1}`): rows of level, option, value.
    option_row_types: frozenset = frozenset()

    @cached_property
    def scan(self) -> Scanner:
        from . import scanner

        return scanner(self.name)

    @cached_property
    def language(self):
        import tree_sitter

        return tree_sitter.Language(_grammar_binding(self.grammar_package).language())

    @cached_property
    def parser(self):
        import tree_sitter

        return tree_sitter.Parser(self.language)

    @cached_property
    def comments(self):
        import tree_sitter

        return tree_sitter.Query(self.language, self.comment_query)

    def parse(self, data: bytes, ranges=None, point: Points | None = None, budget: Budget | None = None, old=None):
        """The syntax tree of the file, or of the byte `ranges` of it only
        (positions stay the file's; `point`: the file's `Points`, where the
        caller has them); see `_parse`.  `old`: the tree of an earlier text
        of the file, told of the edit since (see `edited.edited_tree`):
        tree-sitter parses again only what the edit touched.  Where that
        tree has a syntax error, the file is parsed afresh: error recovery
        may go another way from an earlier tree than from none."""
        if old is not None and not ranges:
            tree = self._parse(data, budget, old)
            if not tree.root_node.has_error:
                return tree
        if not ranges:
            return self._parse(data, budget)
        import tree_sitter

        whole = self.parser.included_ranges
        point = point or Points(data)
        self.parser.included_ranges = [tree_sitter.Range(point(a), point(b), a, b) for a, b in ranges]
        try:
            return self._parse(data, budget)
        finally:
            self.parser.included_ranges = whole

    def _parse(self, data: bytes, budget: Budget | None = None, old=None):
        """The syntax tree, within the `budget` (a TimeoutError when it is
        spent), once `check_nesting` lets the file through."""
        import time

        self.scan.check_nesting(data)
        deadline = budget.deadline if budget is not None else None
        self.parser.reset()  # never resume a parse that was cancelled (or interrupted) before
        if deadline is None:
            return self.parser.parse(data, old) if old is not None else self.parser.parse(data)

        def read(offset, _point):
            return data[offset:offset + 65536]

        def spent(_offset, _has_error):  # returning True cancels the parse
            return time.monotonic() > deadline

        try:
            # Only a parse through a callable can stop.
            tree = self.parser.parse(read, old, progress_callback=spent) if old is not None else \
                self.parser.parse(read, progress_callback=spent)
        except ValueError:
            # A cancelled parse resumes at the next call unless the parser is reset.
            self.parser.reset()
            if time.monotonic() > deadline:
                raise TimeoutError(f"parsing took longer than the time budget ({budget.timeout:g} s a file, "
                                   "see timeout)") from None
            raise
        # The same tree over the bytes themselves (reused whole: no edit), so that
        # a node's text is sliced from them: through `read`, Node.text would call it
        # again for every node (slowly; and py-tree-sitter crashes if it raises).
        return self.parser.parse(data, old_tree=tree)

    def lower(self, path: str, data: bytes, names: frozenset = frozenset(), needed: frozenset = frozenset(),
              own: bool = True, before: tuple[FileModel, Choice] | None = None, option_only: frozenset = frozenset(),
              budget: Budget | None = None, in_project: str | None = None) -> FileModel:
        """The file's model (see `lower_choosing`)."""
        return self.lower_choosing(path, data, names, needed, own, before, option_only, budget,
                                   in_project=in_project)[0]

    def lower_choosing(self, path: str, data: bytes, names: frozenset = frozenset(), needed: frozenset = frozenset(),
                       own: bool = True, before: tuple[FileModel, Choice] | None = None,
                       option_only: frozenset = frozenset(), budget: Budget | None = None,
                       earlier: Earlier | None = None, in_project: str | None = None) -> tuple[FileModel, Choice]:
        """The file's model, and what was left out of it.  `names`: functions of other files that touch a
        connection (a function calling one of them is lowered too); `needed`:
        names other files call (lowered when they have events); `own`: the
        file's own sends start findings; `option_only`: those of `names`
        that set an option and send nothing.  A function not worth lowering is
        kept as a stub (see `Choice.stubs`).  `before`: the file's model and
        choice from an earlier round; where both tell the functions from the bytes,
        the functions it lowered are taken from it, not parsed again (a
        function's model depends on its own text only).  `earlier`: what the
        last lowering of an earlier text of the file left (an edited buffer):
        the functions the edit left alone are taken from it (see edited.py),
        and it is brought up to date.  `in_project`: the path as written from
        the top of its project (`Settings.in_project`; default `path`), whose
        folders tell a test's source.

        Work is bounded.  The walk runs in a thread of its own, so that the
        recursion it may use does not depend on the caller's stack (the same
        file gives the same model in a worker process and in the main one).
        A function nested more than 100 levels deep (statements or
        expressions) is kept with an empty body, and named in
        `budget.notes`: checks and workers handle its model without
        running out of stack.  When the `budget` is spent,
        the walk is stopped where it is and a TimeoutError raised."""
        # A walk that cannot be stopped (stuck in the parser's native code)
        # keeps its parser: the next file gets one of its own.
        return _in_thread(lambda: self._lower(path, data, names, needed, own, before, option_only, budget, earlier,
                                                      in_project or path),
                          budget, stuck=lambda: self.__dict__.pop("parser", None))

    def _lower(self, path: str, data: bytes, names: frozenset, needed: frozenset, own: bool,
               before: tuple[FileModel, Choice] | None, option_only: frozenset, budget: Budget | None,
               earlier: Earlier | None, in_project: str) -> tuple[FileModel, Choice]:
        """`lower_choosing`'s work, in the thread it runs in."""
        if earlier is not None:
            from .edited import edited_tree, unchanged
        trees, found, chosen, unparsed, reused = partial(self, data, names, needed, own, before, option_only, budget)
        lowered = frozenset(chosen.worth) if trees is not None else None
        whole = trees is None  # parsed whole (not in parts)
        if trees is None:
            trees = [self.parse(data, budget=budget, old=edited_tree(earlier, data) if earlier is not None else None)]
            found = self.recovered(data, list(self.functions(trees[0].root_node)), trees[0].root_node, budget)
            chosen = choose(self.scan, [(q, n.start_byte, n.end_byte, c) for q, n, c in found],
                            data, names, needed, own, option_only)
        relevant = chosen.worth
        unit = Unit(self, Source(data), trees[0], path)
        unit.function_names = {q for q, _, _ in found} | {q for q, _ in unparsed} | {fn.qualname for _, fn in reused}
        kept = unchanged(earlier, unit, found, relevant, self.text_facts(unit) if whole else None) \
            if earlier is not None else {}
        functions, resolved = self._lower_functions(unit, found, relevant, kept, budget)
        functions = self._in_file_order(unit, functions, found, reused, unparsed, relevant)
        # Where some functions were parsed on their own, the ranges parsed
        # together hold the errors of their stitching too: count only in functions.
        errors = _count_errors(trees[0].root_node) if len(trees) == 1 else \
            sum(_count_errors(n) for _, n, _ in found)
        errors = max(0, errors - unit.errors_resolved)
        if earlier is not None:
            earlier.remember(data, trees[0] if whole else None, functions, self.text_facts(unit), {
                (fn.qualname, fn.site.line, fn.site.col): resolved[i] for i, fn in enumerate(functions) if i in resolved
            } if whole else None)
        return (FileModel(path, self.name, functions, errors, dict(self.idioms), self.read_paths(data, functions),
                          unit.bases, *self.hierarchy(data), self.catalogue.test_source(in_project), self.enums(data),
                          self.op_tables(data), self.sessions(data)),
                Choice(frozenset(chosen.stubs), frozenset(chosen.left_out_calls), lowered, chosen.quiet,
                       chosen.quiet_options, chosen.makers))

    def _in_file_order(self, unit: "Unit", functions: list[Function], found: list, reused: list, unparsed: list,
                       relevant) -> list[Function]:
        """All the file's functions in the order of the file, as a parse of
        them all would find them: those lowered (`functions`, of `found`),
        those taken from an earlier round (`reused`), stubs of those not
        parsed (`unparsed`); each marked where it is a callback."""
        if reused:
            at = [n.start_byte for _, n, _ in found] + [start for start, _ in reused]
            functions = [fn for _, fn in sorted(zip(at, functions + [fn for _, fn in reused]), key=lambda p: p[0])]
        functions = functions + [unit.stub(q, node) for q, node in unparsed]
        values = _names_as_values(unit.src.data, {_short(q) for q in relevant if not n_is_root(q)}, self.scan.code_only)
        for i, fn in enumerate(functions):
            callback = self.is_callback(fn.qualname, unit) or _short(fn.qualname) in values
            if fn.callback != callback:  # a copy: a function taken from `before` is that model's too
                functions[i] = replace(fn, callback=callback)
        return functions

    def _lower_functions(self, unit: "Unit", found: list, relevant, kept: dict,
                         budget: Budget | None) -> tuple[list[Function], dict[int, int]]:
        """The model of each function of `found`: lowered where `relevant`
        (unless taken from `kept`, see `edited.unchanged`), else a stub; and
        index in `found` -> the syntax errors its lowering resolved (see
        `Unit.errors_resolved`)."""
        resolved: dict[int, int] = {}
        too_deep: dict[str, int] = {}  # qualname -> its line
        fields_set: dict[int, list] = {}  # index in `found` -> the fields its last lowering set

        def lower(i: int) -> Function:
            was, start = unit.errors_resolved, len(unit.fields_set)
            try:
                return self._lower_one(unit, *found[i], budget, too_deep)
            finally:
                resolved[i] = resolved.get(i, 0) + unit.errors_resolved - was
                fields_set[i] = unit.fields_set[start:]

        for i, (_, count) in kept.items():
            resolved[i] = count
            unit.errors_resolved += count
        functions, fields_seen = [], []  # a method's class's fields as its first lowering saw them
        for i, (q, n, c) in enumerate(found):
            fields_seen.append(self.fields_seen(unit, c) if c is not None and q in relevant else None)
            functions.append(kept[i][0] if i in kept else lower(i) if q in relevant else unit.stub(q, n))
        if unit.class_env:
            # A field set in one method (connect(), __init__) is used in the
            # others: lower again, now that the fields are known, the
            # methods whose class's fields have changed since they were
            # lowered (the others would be lowered from the same input
            # again), and the functions nested in those.
            # A method that names none of the fields that changed, whose connections
            # are the same, would be lowered to the same model: it only sets its
            # fields again, as it did.
            again: set[str] = set()
            for i, (q, n, c) in enumerate(found):
                if q not in relevant or i in kept:
                    continue
                if q.rsplit(".", 1)[0] in again or c is not None and self._sees_other_fields(unit, c, fields_seen[i], n):
                    again.add(q)
                    functions[i] = lower(i)
                else:
                    for cls, key, entry in fields_set.get(i, ()):
                        unit.class_env.setdefault(cls, {})[key] = entry
        if too_deep and budget is not None:
            named = ", ".join(f"{q} (line {line})" for q, line in sorted(too_deep.items(), key=lambda i: i[1])[:3])
            more = f" and {len(too_deep) - 3} more" if len(too_deep) > 3 else ""
            budget.notes.append(f"nested too deeply to analyse (over {MAX_DEPTH} levels): {named}{more}; "
                                "the rest of the file was analysed")
        return functions, resolved

    def _lower_one(self, unit: "Unit", q: str, node, cls: str | None, budget: Budget | None,
                   too_deep: dict[str, int]) -> Function:
        """One function's model; where it nests deeper than MAX_DEPTH, kept
        with an empty body and named in `too_deep`."""
        import time

        if budget is not None and budget.deadline is not None and time.monotonic() > budget.deadline:
            raise _over_budget(budget)
        try:
            fn = unit.lower_function(q, node, cls)
            if _depth(fn.body) <= MAX_DEPTH:
                return fn
        except RecursionError:
            pass
        too_deep[q] = node.start_point[0] + 1
        return unit.stub(q, node)

    def text_facts(self, unit: "Unit") -> tuple:
        """What lowering a function reads from anywhere in its file's text (its
        other functions' too), beyond its own top-level definition: an edit
        elsewhere that changes none of it leaves the function's model as it
        was (see edited.py).  A language adds what its lowering reads so."""
        return (unit.announces_interactive,)

    # -- to be supplied by each language --------------------------------

    def functions(self, root):
        """Yield (qualname, node, class name or None) for every function,
        including a pseudo-function for module-level code where it can run."""
        raise NotImplementedError

    tells_builds = False  # whether `one_build` may find what a parse on its own does not

    def one_build(self, data: bytes, start: int, end: int, point=None, budget: Budget | None = None):
        """(tree, functions) of data[start:end] parsed as one build sees it,
        where a parse of it on its own found no function and the language
        has builds (C's preprocessor); else None."""
        return None

    def recovered(self, data: bytes, found: list, root, budget: Budget | None = None) -> list:
        """`found` and the functions a whole parse lost that `one_build`
        finds where the bytes say a function is (as a parse of the parts
        does, see `choice.partial`)."""
        spans = self.scan.byte_functions(data) if root.has_error and self.tells_builds else None
        if not spans:
            return found
        taken = [(n.start_byte, n.end_byte) for _, n, _ in found]
        point, more = Points(data), []
        for q, a, b, _ in spans:
            if any(x < b and a < y for x, y in taken):
                continue
            alone = self.one_build(data, a, b, point, budget)
            if alone is not None and [(name, n.end_byte) for name, n, _ in alone[1]] == [(q, b)]:
                more += alone[1]
        return sorted(found + more, key=lambda f: f[1].start_byte) if more else found

    def declare_params(self, low: "Lowering", node) -> tuple[str | None, ...]:
        raise NotImplementedError

    def body(self, unit: "Unit", node):
        return node.child_by_field_name("body")

    # node type -> how the statement is lowered (any other: its expressions, in order)
    STATEMENTS: dict = {}
    # node type -> its value (any other: none we follow, its parts lowered in order)
    VALUES: dict = {}

    def statement(self, low: "Lowering", node) -> None:
        self.STATEMENTS.get(node.type, Frontend._evaluate)(self, low, node)

    def call(self, low: "Lowering", node):
        raise NotImplementedError

    def value(self, low: "Lowering", node):
        """The value of a non-call expression (identifiers, fields, literals),
        by its type's handler in `VALUES`; None: no value we follow."""
        handler = self.VALUES.get(node.type)
        return handler(self, low, node) if handler is not None else None

    # -- handlers the languages' tables share ------------------------------

    def _evaluate(self, low: "Lowering", node) -> None:
        low.evaluate(node.named_children)

    def _children(self, low: "Lowering", node) -> None:
        low.children(node)

    def _nothing(self, low: "Lowering", node) -> None:
        return

    def _return(self, low: "Lowering", node) -> None:
        low.jump("return", node, node.named_children[0] if node.named_children else None)

    def _break(self, low: "Lowering", node) -> None:
        """break, continue."""
        low.jump(node.type.split("_")[0], node)

    def _truth(self, low: "Lowering", node):
        return Const(node.type == "true")

    def _text(self, low: "Lowering", node):
        return Const(text(node))

    def _conditional(self, low: "Lowering", node):
        """`cond ? a : b`."""
        return low.alternatives(node, node.child_by_field_name("condition"),
                                (node.child_by_field_name("consequence"), node.child_by_field_name("alternative")))

    def _short_circuit(self, low: "Lowering", node):
        """`a && b`, `a || b` (any other binary operator: no value we follow)."""
        operator = node.child_by_field_name("operator").type
        if operator in ("&&", "||"):
            return low.short_circuit(node, node.child_by_field_name("left"), node.child_by_field_name("right"),
                                     holds_when_skipped=operator == "||")
        return None

    def param_test(self, low: "Lowering", cond) -> tuple | None:
        """(parameter, truth) when the condition tests only a parameter the
        function never rebinds (see `If.when`); where a language passes no
        constants worth following, None."""
        return None

    def value_test(self, low: "Lowering", cond) -> tuple | None:
        """(HOLDS, variable, state) when the condition compares a state
        machine's variable with one of its states (see `If.when`); where a
        language tells none, None."""
        return None

    def steady_params(self, low: "Lowering", node) -> frozenset:
        """The parameters of the function `node` that its body never rebinds."""
        return frozenset()

    # The argument nodes that unpack any number of arguments (`f(*args, **options)`).
    unpacking_types: frozenset = frozenset()
    # The literals of no object (`NULL`, `null`, `None`): false as a result.
    null_types: frozenset = frozenset()
    # A logical negation (`!x`, `not x`): its node type, its operand's field.
    negation: tuple[str, str] = ("unary_expression", "argument")

    def result_test(self, cond) -> tuple | None:
        """(the call, truth) when the condition tests only a call's result,
        the first branch running where it has that truth (`!poll_ok(fd)`:
        False); else None."""
        truth = True
        while cond is not None:
            operator = cond.child_by_field_name("operator")
            if cond.type == "parenthesized_expression" and cond.named_child_count == 1:
                cond = cond.named_children[0]
            elif cond.type == self.negation[0] and (operator is None or text(operator) == "!"):
                cond, truth = cond.child_by_field_name(self.negation[1]), not truth
            else:
                break
        return (cond, truth) if cond is not None and cond.type in self.call_types else None

    def result_compared(self, cond) -> tuple | None:
        """(the call, operator, constant) when the condition compares only a call's
        result with a constant (`auth(fd) != OK`, `-1 == handshake(fd)`); else None."""
        parts = _comparison(_unwrapped(cond))
        if parts is None or parts[1] not in _FLIPPED:
            return None
        left, op, right = _unwrapped(parts[0]), parts[1], _unwrapped(parts[2])
        if left.type not in self.call_types:
            left, right, op = right, left, _FLIPPED[op]
        constant = constant_of(right)
        return (left, op, constant) if left.type in self.call_types and constant is not None else None

    def existence_test(self, cond, low: "Lowering | None" = None) -> tuple | None:
        """(the node of a connection, whether the condition holds where it
        exists) when the condition only tests whether it does (`sock is not
        None`, `socket == null`, `fd >= 0`); else None."""
        return None

    def tests_failure(self, cond) -> bool:
        """Whether a condition holding a send tests that it failed (C:
        `send(...) < 0`); where sends raise on failure, none does."""
        return False

    def tests_success(self, cond) -> bool:
        """Whether a condition holding a send tests, alone, that it succeeded
        (C: `send(...) >= 0`), so that where it does not hold the send failed;
        where sends raise on failure, none does."""
        return False

    def names_in(self, cond) -> list[str]:
        """The names and field paths a condition tests (`n`, `c->fd`, `self.sock`)."""
        return _NAMES.findall(compact(cond))

    def _sees_other_fields(self, unit: "Unit", cls: str, before: dict, node) -> bool:
        """Whether a method of `cls` (`node`), first lowered seeing the fields
        `before`, sees other fields now: the connections they stand for, or a
        field whose name its text holds, have changed."""
        now = self.fields_seen(unit, cls)
        if now == before:
            return False
        if _field_conns(now) != _field_conns(before):
            return True
        names = {k.rsplit(".", 1)[-1] for k in now.keys() | before.keys() if now.get(k) != before.get(k)}
        text = unit.src.data[node.start_byte:node.end_byte]
        return any(next(whole_words(text, name.encode()), None) is not None for name in names)

    def fields_seen(self, unit: "Unit", cls: str) -> dict:
        """Field key -> (value, ConnInfo) of the fields the methods of `cls`
        see: its own and its base classes' of the file (Java: and those of the
        classes around an inner class)."""
        seen = {}
        for c in reversed(lineage(unit.bases, cls)):  # the class's own last: its fields hide its bases'
            seen.update(unit.class_env.get(c, {}))
        return seen

    def is_callback(self, qualname: str, unit: "Unit | None" = None) -> bool:
        """Whether a framework calls this function once per event (by its name;
        a language may tell more from the file, `unit`)."""
        return qualname.rsplit(".", 1)[-1] in self.catalogue.callbacks

    def defined_under_condition(self, node) -> bool:
        """Whether the definition `node` runs only where a condition holds (see
        `Function.conditional`); a language whose definitions are no statements has none."""
        return False

    def op_tables(self, data: bytes) -> dict[str, tuple[str, ...]]:
        """See `FileModel.op_tables`."""
        return {}

    def sessions(self, data: bytes) -> dict[str, tuple[str, ...]]:
        """See `FileModel.sessions`."""
        return {}

    def flag_words(self, low: "Lowering", arg_nodes) -> tuple:
        """See `Call.flags`: in a language whose sends take flags (MSG_MORE)."""
        return ()

    def enums(self, data: bytes) -> frozenset[str]:
        """The enums the file declares (see `FileModel.enums`)."""
        return frozenset()

    def arg_type(self, low: "Lowering", node) -> str | None:
        """The static type of an argument where the code tells it, in a
        language with overloads (see `Call.types`)."""
        return None

    def hierarchy(self, data: bytes) -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
        """The file's classes' supertypes and methods declared without a body
        (see `FileModel.supertypes`, `FileModel.abstract`), in a language whose
        calls through an interface or a base class the project resolves."""
        return {}, frozenset()

    def read_paths(self, data: bytes, functions) -> frozenset[str]:
        """Of the connections the functions reach through a member, those a
        call of the file named like a read takes (see `FileModel.read_paths`)."""
        return frozenset()

    def made_as(self, low: "Lowering", key: str) -> bool | None:
        """Whether what `key` names (a member, a global) is made as a TCP
        connection (True) or as an endpoint without Nagle (False) wherever the
        file makes one; None when it does not tell."""
        return None

    def made_both_ways(self, low: "Lowering", key: str) -> bool:
        """Whether the file makes what `key` names both as an endpoint without
        Nagle and otherwise (a platform's own kind): no evidence of TCP."""
        return False

    def stream_over(self, low: "Lowering", key: str) -> str | None:
        """The connection a member names a buffered stream over, where the file makes it so
        wherever it sets that member (`c->out = fdopen(c->fd, "w")`: `c->out` -> `c->fd`);
        else None."""
        return None

    def polled(self, unit: "Unit", key: str) -> bool:
        """Whether `key` names a connection handed out by an event loop
        (epoll, poll, select) that the file fills with TCP connections."""
        return False


class Points:
    """(row, byte column) of byte offsets, as tree-sitter counts; the line
    starts are found once per file."""

    def __init__(self, data: bytes):
        self.starts = [0] + [m.end() for m in re.finditer(b"\n", data)]

    def __call__(self, offset: int) -> tuple[int, int]:
        from bisect import bisect_right

        row = bisect_right(self.starts, offset) - 1
        return row, offset - self.starts[row]


def _grammar_binding(package: str):
    """The compiled module of a grammar package, loaded on its own: the
    package's own import loads importlib.resources (for query files we do
    not read), a tenth of the start-up of a run on one file.  The package is
    imported as usual where its layout is not the expected one."""
    import importlib.util
    from importlib.machinery import EXTENSION_SUFFIXES

    spec = importlib.util.find_spec(package)
    folder = os.path.dirname(spec.origin) if spec is not None and spec.origin else None
    for suffix in EXTENSION_SUFFIXES if folder else ():
        path = os.path.join(folder, "_binding" + suffix)
        if os.path.isfile(path):
            binding = importlib.util.spec_from_file_location(f"{package}._binding", path)
            module = importlib.util.module_from_spec(binding)
            binding.loader.exec_module(module)
            return module
    return __import__(package)



def _names_as_values(data: bytes, names, code_only) -> set[str]:
    """Those of `names` the file uses other than in a call or a definition (a
    callback registered, a function stored in a table), in its code: not in a
    comment or a string (a docstring's "Version of send_head that ...").  `code_only`:
    the file with those blanked, asked only where a name is used so."""
    found, code = set(), None
    for name in names:
        word = name.encode()
        for at in whole_words(data, word):
            if _CALLED_AT.match(data, at + len(word)):
                continue
            if code is None:
                code = code_only(data)
            if code.startswith(word, at):
                found.add(name)
                break
    return found


_CALLED_AT = re.compile(rb"\s*\(")


def _quiet_stops(hook, thread):
    """`hook`, but silent on a stop request (TimeoutError) that a callback
    swallowed in `thread`: it is raised again there."""
    import threading

    def quiet(unraisable) -> None:
        if not (unraisable.exc_type is TimeoutError and threading.current_thread() is thread):
            hook(unraisable)

    quiet.stopped = thread
    return quiet


# A function nested deeper than this (statements or expressions) is kept with an empty body.
MAX_DEPTH = 100


def _depth(body) -> int:
    """How deep the statements of `body` nest."""
    deepest, stack = 0, [(body, 1)]
    while stack:
        stmts, depth = stack.pop()
        for s in stmts:
            inner = blocks(s)
            if inner:
                deepest = max(deepest, depth)
                stack.extend((b, depth + 1) for b in inner)
    return deepest


def _over_budget(budget: Budget) -> TimeoutError:
    return TimeoutError(f"took longer than the time budget ({budget.timeout:g} s a file, see timeout)")


def _in_thread(work, budget: Budget | None, stuck):
    """What `work()` returns (or raises), run in a thread of its own with a
    big stack, stopped with a TimeoutError when the `budget` is spent;
    `stuck()` is called where the thread cannot be stopped."""
    import threading
    import time

    deadline = budget.deadline if budget is not None else None
    outcome: list = []
    lock = threading.Lock()

    def run() -> None:
        try:
            try:
                answer = (True, work())
            except BaseException as e:  # handed to the caller's thread
                answer = (False, e)
            with lock:
                outcome.append(answer)
        except BaseException:  # the stop request arrived as the work ended
            if not outcome:
                outcome.append((False, TimeoutError()))

    old = threading.stack_size()
    try:
        threading.stack_size(64 << 20)  # room for the recursion limit's worth of frames, and tree-sitter's own
    except (ValueError, RuntimeError):  # pragma: no cover - a platform that cannot size threads
        pass
    try:
        worker = threading.Thread(target=run, name="nagle-lint-lower", daemon=True)
        worker.start()
    except RuntimeError:  # pragma: no cover - no thread to be had: do the work here, unstoppable
        worker = None
        run()
    finally:
        threading.stack_size(old)
    if worker is not None:
        worker.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
    if worker is not None and worker.is_alive():
        # The budget is spent inside one function's walk: stop the walk
        # there, with a TimeoutError raised in its thread; raised again
        # while the thread goes on, as a callback that runs meanwhile (a
        # garbage collector's, a weak reference's) may swallow it; a stop
        # swallowed so is not reported as that callback's error.
        give_up = time.monotonic() + 1.0
        hook = sys.unraisablehook
        sys.unraisablehook = _quiet_stops(hook, worker)
        try:
            while worker.is_alive() and time.monotonic() < give_up:
                with lock:
                    if not outcome:
                        try:
                            import ctypes

                            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(worker.ident),
                                                                       ctypes.py_object(TimeoutError))
                        except (ImportError, AttributeError):  # pragma: no cover - not CPython
                            pass
                worker.join(0.05)
        finally:
            if getattr(sys.unraisablehook, "stopped", None) is worker:  # not replaced meanwhile
                sys.unraisablehook = hook
        if worker.is_alive():  # pragma: no cover - stuck in native code: leave it
            stuck()
            outcome.append((False, TimeoutError()))
    ok, value = outcome[0]
    if not ok:
        if isinstance(value, TimeoutError) and not str(value) and budget is not None:
            raise _over_budget(budget)
        raise value
    return value


def _count_errors(root) -> int:
    if not root.has_error:
        return 0
    count, stack = 0, [root]
    while stack:
        n = stack.pop()
        if n.is_error or n.is_missing:
            count += 1
        elif n.has_error:
            stack.extend(n.children)
    return count


def per_file(find):
    """`find(unit, ...)`, a fact of the whole file found from its text, found
    the first time it is asked and kept on the unit."""
    @wraps(find)
    def once(unit: "Unit", *args):
        if find not in unit.facts:
            unit.facts[find] = find(unit, *args)
        return unit.facts[find]
    return once


class Unit:
    """One file being lowered: comments, classes' fields, functions' names."""

    def __init__(self, fe: Frontend, src: Source, tree, path: str = ""):
        self.fe = fe
        self.src = src
        self.path = path
        self.tree = tree  # where some functions were also parsed on their own, the one holding every parsed byte
        self.class_env: dict[str, dict] = {}  # class -> field key -> (value, ConnInfo)
        self.fields_set: list[tuple] = []  # (class, field key, (value, ConnInfo)) in the order lowering set them
        self.class_types: dict[str, dict] = {}  # class -> field name -> declared type
        self.function_names: set[str] = set()
        self.scopes: dict[str, Lowering] = {}  # lowered functions, for the closures nested in them
        self.facts: dict = {}  # a language's facts of the whole file (see `per_file`)
        self.errors_resolved = 0  # syntax errors a function's body parsed again had no more

    @cached_property
    def class_names(self) -> frozenset[str]:
        """The last names of the file's classes with a method (`Outer.Inner.m` -> `Inner`)."""
        return frozenset(q.rsplit(".", 1)[0].rsplit(".", 1)[-1] for q in self.function_names if "." in q)

    @cached_property
    def bases(self) -> dict[str, tuple[str, ...]]:
        """Class -> its base classes defined in the file (see `FileModel.bases`)."""
        return self.fe.scan.class_bases(self.src.data, {q.rsplit(".", 1)[0] for q in self.function_names if "." in q})

    @cached_property
    def comment_lines(self) -> dict[int, str]:
        found: dict[int, str] = {}
        import tree_sitter

        captures = tree_sitter.QueryCursor(self.fe.comments).captures(self.tree.root_node)
        for nodes in captures.values():
            for n in nodes:
                for row in range(n.start_point[0], n.end_point[0] + 1):
                    found[row + 1] = found.get(row + 1, "") + " " + text(n)
        return found

    @cached_property
    def option_rows(self) -> list:
        """(row, option, value node, outside every function and class) of every
        row of an option table in the parsed file that names TCP_NODELAY or
        TCP_CORK/TCP_NOPUSH."""
        return self._option_rows(self.tree.root_node)

    @cached_property
    def top_option_rows(self) -> list:
        """`option_rows` outside every function and class, from a parse of the whole file
        (where only some of its functions were parsed, its top-level tables were not)."""
        if not any(w.encode() in self.src.data for w in OPTION_CONSTANTS):
            return []
        whole = self.fe.parser.parse(self.src.data) if self.fe.scan.tells_functions else self.tree
        return [r for r in self._option_rows(whole.root_node) if r[3]]

    def _option_rows(self, root) -> list:
        rows, stack = [], [(root, True)]
        while stack:
            n, outside = stack.pop()
            if n.type in self.fe.option_row_types:
                items = [c for c in n.named_children if "comment" not in c.type]
                named = [option_named(text(c)) for c in items[:-1]]
                option = next((o for o in named if o), None)
                if len(items) >= 3 and option:
                    rows.append((n, option, items[-1], outside))
                    continue
            inner = outside and n.type not in self.fe.skip_types
            stack.extend((c, inner) for c in n.children)
        return sorted(rows, key=lambda r: r[0].start_byte)

    @cached_property
    def announces_interactive(self) -> bool:
        """Whether the file writes an interactive protocol's identification
        string, or imports a module named for one (see `Catalogue.imports`)."""
        data = self.src.data
        if INTERACTIVE_BANNERS.search(data) is not None:
            return True
        return any(not INTERACTIVE_PROTOCOLS.isdisjoint(name_words(m.decode()))
                   for pattern in self.fe.catalogue.imports for m in re.findall(pattern.encode(), data))

    def comment_near(self, line: int) -> str:
        """The comments on `line` and the comment block just above it (ending on
        one of the two lines above: a value may be set between them)."""
        found = [self.comment_lines.get(line, "")]
        end = next((n for n in (line - 1, line - 2) if n in self.comment_lines), None)
        while end is not None and end in self.comment_lines:
            found.append(self.comment_lines[end])
            end -= 1
        return " ".join(reversed([f for f in found if f])).strip()

    def comment_before(self, at: int) -> str:
        """The comment block that ends just before byte `at` (a definition's
        documentation), read from the bytes: a file parsed in parts holds no
        node for it."""
        head = self.src.data[max(0, at - 4096):at].rstrip()
        if head.endswith(b"*/"):
            start = head.rfind(b"/*")
            return head[start:].decode("utf-8", "replace") if start >= 0 else ""
        lines = head.split(b"\n")
        marker = self.fe.line_comment.encode()
        block = []
        while lines and lines[-1].lstrip().startswith(marker):
            block.append(lines.pop().strip())
        return b"\n".join(reversed(block)).decode("utf-8", "replace")

    def stub(self, qualname: str, node) -> Function:
        """A function not worth lowering: there, so that calls to it resolve to
        it (and not to a namesake elsewhere), but without a body."""
        return Function(qualname, self.src.site(node), (), (), {}, self.fe.is_callback(qualname, self),
                        conditional=self.fe.defined_under_condition(node))

    def lower_function(self, qualname: str, node, cls: str | None) -> Function:
        low = Lowering(self, qualname, cls)
        low.node = node
        outer = self.scopes.get(qualname.rsplit(".", 1)[0]) if "." in qualname else None
        if outer is not None and cls is None:
            _see_enclosing(low, outer)
        self.scopes[qualname] = low
        params = self.fe.declare_params(low, node)  # may emit a prologue (a callback's implied read)
        if outer is not None:
            _hide_enclosing(low, outer)
        stmts = self._body_of(low, node)
        return self._function(low, qualname, node, params, tuple(low._out[0]) + stmts)

    def _body_of(self, low: Lowering, node) -> tuple:
        body = self.fe.body(self, node)
        given = node.child_by_field_name("body")
        if body != given and given is not None:  # parsed again, as one build sees it (C); nodes are new objects each time
            self.errors_resolved += _count_errors(given) - _count_errors(body)
        return low.block_of(body) if body is not None else ()

    def _function(self, low: Lowering, qualname: str, node, params: tuple, stmts: tuple) -> Function:
        """The Function `low` lowered, `stmts` its body (its prologue first)."""
        aliases = tuple(sorted((name, param) for name, param in low.aliases.items() if name not in low.rebound))
        local = low.declared - low.params - low.not_local - {name for name, _ in aliases}  # (a parameter's, by another name)
        defaults = tuple(low.defaults.get(p) for p in params) if low.defaults else ()
        return Function(qualname, self.src.site(node), params, stmts, low.conns,
                        self.fe.is_callback(qualname, self),
                        locals=frozenset(k for k in low.conns if _base_name(k) in local),
                        field_params=tuple(sorted((field, source) for source, field in low._fields_of.items()
                                                  if source in low.params)),
                        field_locals=tuple(sorted((field, source) for source, field in low._fields_of.items()
                                                  if source not in low.params)),
                        defaults=defaults, steady=low.steady() if low.passes_params else frozenset(),
                        param_types=low.param_types,
                        returns=next(iter(low.returned)) if len(low.returned) == 1 else None,
                        returns_one_of=tuple(sorted(low.returned)) if len(low.returned) > 1 else (), aliases=aliases,
                        conditional=self.fe.defined_under_condition(node))


def _field_conns(seen: dict) -> list[tuple[str, ConnInfo]]:
    """(key, ConnInfo) of the connections the fields `seen` hold, the first
    field holding one naming it, as a method of their class starts with them."""
    conns: dict[str, ConnInfo] = {}
    for val, info in seen.values():
        if isinstance(val, Handle) and val.key not in conns and info is not None:
            conns[val.key] = ConnInfo(info.name, info.tcp, info.confidence, "field", nodelay=info.nodelay,
                                      answered=info.answered, held=info.held)
    return list(conns.items())


def _hide_enclosing(low: Lowering, outer: Lowering) -> None:
    """A parameter hides the enclosing function's variable of its name."""
    for name in low.params:
        if name in outer.env and low.env.get(name) is outer.env[name]:
            del low.env[name]


def _see_enclosing(low: Lowering, outer: Lowering) -> None:
    """A nested function sees its enclosing function's variables."""
    for name, value in outer.env.items():
        low.env[name] = value
        if isinstance(value, Handle) and value.key in outer.conns:
            info = outer.conns[value.key]
            low.conns[value.key] = ConnInfo(info.name, info.tcp, info.confidence, "unknown", answered=info.answered)


class Lowering:
    """Lowers one function: an environment of names to values, the statement
    lists being built, and the connections met so far."""

    def __init__(self, unit: Unit, qualname: str, cls: str | None):
        self.unit = unit
        self.fe = unit.fe
        self.qualname = qualname
        self.cls = cls
        self.node = None  # the function's node, once lowering it
        self.env: dict[str, object] = {}
        self.conns: dict[str, ConnInfo] = {}
        self.params: set[str] = set()
        self.types: dict[str, str] = {}  # declared type of a local or parameter, where the language says
        self.param_types: tuple[str | None, ...] = ()  # see `Function.param_types`
        self.returned: set = set()  # the classes of the objects returned (see `Function.returns`)
        self.declared: set[str] = set()  # local variables declared (C, Java) or bound (Python)
        self.not_local: set[str] = set()  # names declared global or nonlocal (Python)
        self.defaults: dict[str, bool] = {}  # a parameter -> the truth of its constant default
        self.passes_params = False  # some call passes a parameter on (see `Function.steady`)
        self._steady: frozenset | None = None
        self._local_pair: bool | None = None
        self.rebound: set[str] = set()  # the names given a value or lent by address, where a frontend tells
        self._out: list[list] = [[]]
        self._assigned: list[set[str]] = []
        self._fields_of: dict[str, str] = {}  # a local connection's key -> the first field holding it
        self._reads_named = False  # some name holds what a read returned (see `from_read`)
        self._skips: dict[Site, bool] = {}  # a short circuit's site -> whether skipping its right side means it holds
        self.sizes: dict[str, str] = {}  # a name -> the size of the payload it holds, where the code says
        # A local variable -> the expression last copied into it (`nd = l->nodelay`), where the
        # frontend tells: an option set from the copy is set from what was copied.
        self.copies: dict[str, object] = {}
        self.aliases: dict[str, str] = {}  # see `Function.aliases`, where a frontend tells
        self._ahead: dict[str, tuple] = {}  # a label jumped to -> what runs from there (see `jump_ahead`)
        self._in_label_code = False  # lowering what runs from a label jumped to (see `jump_ahead`)
        if cls is not None:
            seen = self.fe.fields_seen(unit, cls)
            self.env.update((key, val) for key, (val, _) in seen.items())
            for key, info in _field_conns(seen):
                self.conns.setdefault(key, info)

    def steady(self) -> frozenset:
        """The parameters the function never rebinds (see `Function.steady`), worked out once."""
        if self._steady is None:
            self._steady = self.fe.steady_params(self, self.node) if self.node is not None else frozenset()
        return self._steady

    # -- output ----------------------------------------------------------

    def emit(self, stmt) -> None:
        self._out[-1].append(stmt)

    def site(self, node) -> Site:
        return self.unit.src.site(node)

    def block_of(self, node) -> tuple:
        """Lower a statement or a block of statements into a tuple."""
        return self._lowered(self.stmt, (node,) if node is not None else ())

    def stmts(self, nodes) -> tuple:
        return self._lowered(self.stmt, nodes)

    def stmts_of_exprs(self, nodes) -> tuple:
        return self._lowered(self.expr, nodes)

    def _lowered(self, lower, nodes) -> tuple:
        """What `lower` (`stmt` or `expr`) emits for each of `nodes`, in a tuple
        (no frame of its own per statement: deep nesting recurses through here)."""
        self._out.append([])
        try:
            for n in nodes:
                lower(n)
        finally:
            out = self._out.pop()
        return tuple(out)

    def aside(self, make) -> tuple:
        """What `make()` emits, in a tuple, instead of where the lowering is."""
        self._out.append([])
        try:
            make()
        finally:
            out = self._out.pop()
        return tuple(out)

    def stmt(self, node) -> None:
        if node.type in self.fe.skip_types:
            return
        self.fe.statement(self, node)

    def children(self, node) -> None:
        for c in node.named_children:
            self.stmt(c)

    # -- structure shared by all languages ------------------------------

    def if_chain(self, node, branches: list) -> None:
        """`branches`: (condition node, body node) in order, the last with a
        None condition when there is an else.  A later condition is evaluated
        only when the earlier ones failed, so each lives in the previous else."""
        cond, body = branches[0]
        if cond is None:
            self.stmt(body)
            return
        mark = len(self._out[-1])
        self.expr(cond)
        then = self.block_of(body)
        # `if (send(...) < 0)`, `if (n < 0)`: taken because the send failed
        then = self.failed_sends(cond, self._out[-1][mark:]) + then
        # `if ((n = send(...)) >= 0) ... else`: the else is taken because it failed
        failed_else = self.failed_sends(cond, self._out[-1][mark:], success=True)
        when = self.fe.param_test(self, cond) or self.result_when(cond, self._out[-1][mark:]) \
            or self.fe.value_test(self, cond)
        # `if sock is not None:`, `if (fd >= 0)`: where it fails there is no
        # connection, and nothing sent on it waits (a guarded close closes it)
        gone = self.existence(cond)
        absent = (Failed(gone[0], self.site(cond)),) if gone is not None else ()
        # the same test later, or in a callee given the same connection, takes the same branch
        if when is None and gone is not None:
            when = HOLDS, EXISTS + gone[0], int(gone[1])
        if gone is not None and not gone[1]:
            then = absent + then
        if self.makes_room(cond, body):
            then += (Pause(self.site(cond)),)
        before_other = (absent if gone is not None and gone[1] else ()) + failed_else
        skipped = self.short_circuit_skip(cond, mark)
        if len(branches) == 1:
            if before_other:
                chosen = If((then, before_other), True, self.site(node), when=when)
            else:
                chosen = If((then,), False, self.site(node), when=when)
        else:
            self._out.append([])
            try:
                self.if_chain(node, branches[1:])
            finally:
                other = tuple(self._out.pop())
            chosen = If((then, before_other + other), True, self.site(node), when=when)
        for s in self.skipping(skipped, chosen) if skipped is not None else (chosen,):
            self.emit(s)

    def short_circuit_skip(self, cond, mark: int) -> tuple | None:
        """(the `If` running the right operand, whether skipping it means the condition holds)
        when the condition is `a || b` or `a && b` and the last thing its lowering emitted is
        `b` run on some paths only (see `short_circuit`): that `If` is taken back, for
        `skipping`."""
        if len(self._out[-1]) <= mark:
            return None
        last, site = self._out[-1][-1], self.site(_unwrapped(cond))
        holds = self._skips.get(site)
        if holds is None or not (isinstance(last, If) and not last.exhaustive and len(last.branches) == 1
                                 and last.site == site):
            return None
        self._out[-1].pop()
        return last, holds

    @staticmethod
    def skipping(skipped: tuple, chosen: If) -> tuple:
        """`if (!ready(fd) || read(fd, ...) != n) return -1;`: where the read is skipped the
        condition holds, so the first branch runs, never the others (the reverse for `&&`).
        That branch is repeated in the model only where it is a few plain statements, or
        where it ends the path (`goto fail;`, `continue;`): each repeat doubles what is nested
        in it, and one that goes on doubles what follows too; else `b` may be skipped, as it was."""
        right, holds = skipped
        then = chosen.branches[0]
        other = tuple(s for b in chosen.branches[1:] for s in b) if chosen.exhaustive else ()
        taken = then if holds else other
        ends = bool(taken) and isinstance(taken[-1], (Return, Break, Continue))
        if not ends and (len(taken) > 4 or any(isinstance(s, (If, Loop, Try)) for s in taken)):
            return right, chosen
        return (If((taken, right.branches[0] + (chosen,)), True, chosen.site),)

    def makes_room(self, cond, body) -> bool:
        """Whether the branch runs where a buffer refused what it was given and tries
        again (`if (!out.encode(msg)) { flush(); out.encode(msg); }`): what it sends
        before the retry is the buffer, full, in full-size segments acknowledged at once."""
        tested = self.fe.result_test(cond)
        if tested is None or tested[1]:
            return False
        call = compact(tested[0])
        return any(n.type in self.fe.call_types and compact(n) == call for n in descendants(body))

    def result_when(self, cond, emitted: list) -> tuple | None:
        """`If.when` for a condition testing only the result of the call it
        makes, kept as the last statement before the `If`."""
        tested = self.fe.result_test(cond)
        if tested is not None:
            call, when = tested[0], (CALL_RESULT, tested[1])
        else:
            compared = self.fe.result_compared(cond)
            if compared is None:
                return None
            call, when = compared[0], (CALL_RESULT, *compared[1:])
        last = emitted[-1] if emitted else None
        return when if isinstance(last, Call) and last.site == self.site(call) else None

    def existence(self, cond) -> tuple[str, bool] | None:
        """(connection key, whether the condition holds where it exists) when
        the condition tests only whether a connection exists (see
        `Frontend.existence_test`): the connection itself, not a stream over
        it (a stream not made yet says nothing of its socket)."""
        tested = self.fe.existence_test(_unwrapped(cond), self) if cond is not None else None
        if tested is None:
            return None
        value = self.expr(tested[0])
        key = value.key if isinstance(value, Handle) else self.fe_key(tested[0])
        known = isinstance(value, Handle) or key in self.conns or isinstance(self.env.get(key), Handle)
        named = key is not None and _last_name(key) == _last_name(compact(tested[0]))  # not a stream over it
        return (key, tested[1]) if known and named else None

    def failed_sends(self, cond, events, *, success: bool = False) -> tuple:
        """`Failed` for each connection whose send a condition tests for failure (for
        success, with `success`: then for the branch where it does not hold): a send
        among the condition's `events`, or one whose result a name in it holds; and for
        each connection given a call it tests so (see `Failed.call`)."""
        if cond is None or not (self.fe.tests_success(cond) if success else self.fe.tests_failure(cond)):
            return ()
        values = [self.env.get(name) for name in self.fe.names_in(cond)]
        return _failures(events, self.site(cond), {v.conn for v in values if isinstance(v, Sent)},
                         {k for v in values if isinstance(v, Handle) for k in v.given}
                         | {v.conn for v in values if isinstance(v, Received)})

    def loop(self, node, head_nodes=(), body=None, *, infinite=False, body_first=False,
             before=(), targets=(), update=(), reads=(), element_size: str | None = None, retries=None,
             pieces: bool = False, over=()) -> None:
        """`before` runs once (a for-loop's initialiser or iterable); `head`
        before every pass; `targets` are rebound on every pass; `update` at
        the end of every pass; `reads`: handles read at every pass (a loop
        over the lines of a stream); `element_size`: the size of what a
        target takes each pass, where the code says (a character of a string);
        `retries`: the condition of a while or do-while loop (`while (send(...)
        < 0 && errno == EINTR)`), which may test a send for failure: the loop
        then comes round only when it failed; `pieces`: see `Loop.pieces`; `over`: what
        a for-loop goes through, evaluated already (see `Loop.answers`)."""
        for n in before:
            self.expr(n)
        self._assigned.append(set())
        head = self._loop_head(node, head_nodes, targets, reads, element_size)
        # What was read, or a method's result on it (`data.splitlines()`).
        answers = self.read_in(*head_nodes, *before, *over)
        body_stmts = self.block_of(body) + self.stmts_of_exprs(update)
        varies = self._varying(update, head + body_stmts)
        polled = frozenset(k for k in varies if self.fe.polled(self.unit, k))
        failed = self.failed_sends(retries, head) if retries is not None else ()
        if failed:  # come round only past the failure, else leave: an endless loop with a break
            site = self.site(retries)
            if body_first:
                body_stmts = body_stmts + head + (If((failed, (Break(site),)), True, site),)
            else:
                body_stmts = head + (If((failed + body_stmts, (Break(site),)), True, site),)
            head, infinite, body_first = (), True, False
        self.emit(Loop(head, body_stmts, self.site(node), infinite, body_first, varies, polled, pieces, answers))

    def read_in(self, *nodes) -> frozenset[str]:
        """The connections whose reads returned a value these expressions name."""
        conns = set()
        for v in map(self.env.get, (name for n in nodes if n is not None
                                    for path in _NAMES.findall(compact(n))
                                    for name in (path, path.split(".")[0]))):
            if isinstance(v, Received):
                conns.add(v.conn)
            elif isinstance(v, FromRead):
                conns |= v.conns
        return frozenset(conns)

    def from_read(self, node) -> FromRead | None:
        """What an expression of no known value gives, where it is worked out
        from what was read (`data[0]`, `struct.unpack("!H", head)[0]`)."""
        if not self._reads_named:
            return None
        conns = self.read_in(node)
        return FromRead(conns) if conns else None

    def _loop_head(self, node, head_nodes, targets, reads, element_size) -> tuple:
        """What runs before every pass: the targets rebound, the head, the reads."""
        self._out.append([])
        try:
            for t in targets:
                self.bind_target(t, None)
                key = self.fe_key(t) if t.type not in self.fe.tuple_types else None
                if key is not None:
                    self.emit(Bind(key, self.site(t)))  # a new connection (or none) every pass
                    if element_size is not None:
                        self.sizes[key] = element_size
            for n in head_nodes:
                self.expr(n)
            for h in reads:
                self.recv(h, node)
        finally:
            head = tuple(self._out.pop())
        return head

    def _varying(self, update, stmts) -> frozenset:
        """The connections a loop's pass may change (the loop's assignments
        end here, and count for the loop around it too): those named by what
        it assigns, or bound in `stmts`."""
        assigned = self._assigned.pop()
        for n in update:  # i++ in a for-loop's update: everything it names changes every pass
            assigned |= set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text(n)))
        if self._assigned:
            self._assigned[-1] |= assigned
        bound = {s.conn for s in walk(stmts) if isinstance(s, Bind)}
        return frozenset(k for k in self.conns if _mentions(k, assigned) or k in bound)

    def switch(self, node, cases: list, exhaustive: bool, fallthrough: bool = True) -> None:
        """`fallthrough`: a case that does not end in a jump runs on into the next (C, Java `case x:`)."""
        lowered = [self.stmts(c) for c in cases]
        branches = []
        for i, b in enumerate(lowered):
            j = i
            while fallthrough and j + 1 < len(lowered) and not (b and isinstance(b[-1], (Break, Return, Continue))):
                j += 1
                b = b + lowered[j]
            branches.append(b)
        branches = tuple(branches)
        self.emit(If(branches, exhaustive, self.site(node), switch=True))

    def try_(self, node, body, handlers, orelse, final, resources=(), closes=None, broken=()) -> None:
        """`closes()`, when given, returns the handles closed when the body ends
        (try-with-resources); `broken`: for each handler, whether it catches the
        failure of a read or a write (see `Catalogue.connection_failures`)."""
        for r in resources:
            self.stmt(r)
        first, b = self.leading(body)
        if closes is not None:
            self._out.append([])
            for h in closes():
                self.close(h, node)
            b = b + tuple(self._out.pop())
        hs = tuple(self.block_of(h) for h in handlers)
        if any(broken):  # see `Catalogue.connection_failures`
            failed = _failures(b, self.site(node), set(), set())
            hs = tuple(failed + h if catches else h for h, catches in zip(hs, broken))
        e = self.block_of(orelse) if orelse is not None else ()
        f = self.block_of(final) if final is not None else ()
        self.emit(Try(b, hs, e, f, self.site(node), exposed=not first))

    def leading(self, body) -> tuple[tuple, tuple]:
        """What a block's first statement emits, and what the whole block does."""
        if body is None or body.type != "block":
            return (), self.block_of(body)
        stmts = [c for c in body.named_children if not c.type.endswith("comment")]
        first = self.stmts(stmts[:1])
        return first, first + self.stmts(stmts[1:])

    def jump(self, kind, node, value=None) -> None:
        """`return`, `raise` (an exception: an error path), `break` or `continue`."""
        v = self.expr(value) if value is not None else None
        if isinstance(v, Fresh):  # `return socket(...)`: a connection made to be returned
            v = self.new_conn(f"returned@{self.site(node).line}", node, v.tcp, v.confidence)
        elif isinstance(v, Obj):  # `return Response(sock)`: its constructor runs (and may read) first
            self.made(v, f"returned@{self.site(node).line}")
            self.returned.add(v.cls)
        if kind == "raise":
            self.emit(Return(self.site(node), raised=True))
        elif kind == "return":
            out = self._out[-1]
            of_call = isinstance(v, Returned) and v.emitted and bool(out) and out[-1] is v.call
            self.emit(Return(self.site(node), v.key if isinstance(v, Handle) else None,
                             truth=self.literal_truth(value, v), of_call=of_call, constant=constant_of(value)))
        else:
            self.emit({"break": Break, "continue": Continue}[kind](self.site(node)))

    def jump_ahead(self, label: str, node, rest, end=Return) -> None:
        """A jump to `label` further down the function (`goto fail;`) or the
        loop's body: the code from there to the end of it runs, then the
        function ends (`end` Return) or the loop goes round (Continue).  `rest()`
        lowers that code, once per label, with the names as they stand here,
        which it leaves as they were: the code after the jump does not run
        after it.  A jump inside that code goes on as if it fell through:
        followed, each label's code would hold the next one's twice (a ladder
        of `goto cleanupN;` doubles at each rung)."""
        if self._in_label_code:
            return
        tail = self._ahead.get(label)
        if tail is None:
            self._in_label_code = True
            names, sizes, copies = dict(self.env), dict(self.sizes), dict(self.copies)
            try:
                tail = self.aside(rest)
            finally:
                self.env, self.sizes, self.copies = names, sizes, copies
                self._in_label_code = False
            if not (tail and isinstance(tail[-1], (Return, Break, Continue))):
                tail += (end(self.site(node)),)
            self._ahead[label] = tail
        for s in tail:
            self.emit(s)

    # -- expressions -------------------------------------------------------

    def expr(self, node):
        """Lower an expression (emitting its events in evaluation order) and
        return its abstract value."""
        if node is None:
            return None
        t = node.type
        if t in self.fe.skip_types:
            return None
        if t in self.fe.call_types:
            return self.fe.call(self, node)
        if t in self.fe.wrapper_types:
            inner = node.child_by_field_name("value") or (node.named_children[-1] if node.named_children else None)
            return self.expr(inner)
        value = self.fe.value(self, node)
        if value is None:
            self.evaluate(node.named_children)
        return None if value is NO_VALUE else value

    def exit_process(self, node):
        """`exit(1)`: the process ends, as a raise ends the path (no caller goes
        on); its connections close, and closing sends what they held."""
        self.emit(Return(self.site(node), raised=True))
        return NOT_CONN

    def pause(self, node, seconds: float | None):
        """A sleep: long enough (or of a length not told) for the peer's
        delayed ACK, everything sent before it has been acknowledged."""
        if seconds is None or seconds >= ACKED_AFTER:
            self.emit(Pause(self.site(node)))
        return NOT_CONN

    def alternatives(self, node, cond, arms):
        """`cond ? a : b`: the condition, then one of the arms, never both."""
        self.expr(cond)
        lowered = tuple(self.stmts_of_exprs((a,)) for a in arms)
        if any(lowered):
            self.emit(If(lowered, True, self.site(node)))
        return NO_VALUE

    def short_circuit(self, node, left, right, holds_when_skipped: bool):
        """`a && b`, `a or b`: `b` runs only on some paths; where it is
        skipped, the whole is true (`||`, `or`: `holds_when_skipped`) or false."""
        self.expr(left)
        lowered = self.stmts_of_exprs((right,))
        if lowered:
            self._skips[self.site(node)] = holds_when_skipped
            self.emit(If((lowered,), False, self.site(node)))
        return NO_VALUE

    def evaluate(self, nodes) -> None:
        """Lower expressions for their events alone (their values are not
        used).  A leaf, a name or a literal, has nothing but a value and is
        passed over (about a quarter of the expressions lowered in C)."""
        live = self.fe.live_leaf_types
        for node in nodes:
            if node is not None and (node.child_count or node.type in live):
                value = self.expr(node)
                if isinstance(value, Obj) and value.init is not None:
                    # An object made and passed on unnamed (`new Thread(new Handler(socket))`):
                    # its constructor runs there all the same.
                    self.made(value, self.fe_key(node))

    def args(self, node) -> list:
        """The argument nodes of an argument list (comments dropped)."""
        if node is None:
            return []
        return [a for a in node.named_children if "comment" not in a.type]

    # -- connections -----------------------------------------------------

    def assign(self, name: str, value) -> None:
        """Bind `name` (a variable or a field path) to `value`."""
        if self.fe.binding_declares and name.isidentifier():
            self.declared.add(name)
        if self._assigned:
            # A member assigned (`c->incoming = ...`) rebinds neither `c` nor its other members.
            if "->" not in name and "." not in name:
                self._assigned[-1].add(_base_name(name))
            self._assigned[-1].add(name)
        self.sizes.pop(name, None)
        self._reads_named = self._reads_named or isinstance(value, Received)
        if value is None:
            self.env.pop(name, None)
        else:
            self.env[name] = value
        if self.cls is not None and name.startswith(("self.", "this.")) and value is not None:
            info = self.conns.get(value.key) if isinstance(value, Handle) else None
            if info is not None and not value.key.startswith(("self.", "this.")):
                # A local connection kept in fields (`self.sock = sock`, `self.rfile =
                # sock.makefile()`): other methods know it by the first field that holds it.
                holder = self._fields_of.setdefault(value.key, name)
                value = replace(value, key=holder)
                info = replace(info, name=holder) if holder not in self.conns else self.conns[holder]
            self.unit.class_env.setdefault(self.cls, {})[name] = (value, info)
            self.unit.fields_set.append((self.cls, name, (value, info)))

    def drop(self, node) -> None:
        """`sock = None` (null, -1): on this path the name no longer holds the
        connection it named, and what that one sent waits for nothing the code
        does with the name afterwards (it connects again, or gives up)."""
        key = self.fe_key(node)
        if key is not None and key in self.conns:
            self.emit(Bind(key, self.site(node), dropped=True))

    def field_alias(self, target: str, source: str) -> None:
        """`self.sock = sock` with `sock` no connection known yet (a parameter):
        a connection `sock` turns out to be is kept in fields as `self.sock`."""
        if self.cls is not None and target.startswith(("self.", "this.")) and source.isidentifier():
            self._fields_of.setdefault(source, target)

    def bind_target(self, node, value) -> None:
        """Assign `value` to a target node (a name, a field, a tuple of them)."""
        if node is None:
            return
        if value is NOT_CONN and node.type in self.fe.tuple_types:
            for t in node.named_children:
                self.bind_target(t, NOT_CONN)
            return
        if isinstance(value, Pair) and node.type in self.fe.tuple_types:
            targets = [c for c in node.named_children]
            for t, v in zip(targets, value.items):
                self.bind_target(t, v)
            return
        key = self.fe_key(node)
        if key is None:
            return
        if isinstance(value, Returned):
            value = self.bind_result(value, key)
        if isinstance(value, Obj):
            value = self.made(value, key)
        if isinstance(value, Fresh):
            value = self.new_conn(key, node, value.tcp, value.confidence, value.library)
        elif isinstance(value, Pair):
            value = None
        self.assign(key, value)

    def made(self, value: Obj, key: str) -> Obj:
        """The object `value` named `key`: its constructor call, still to be made, made on it."""
        if value.init is None:
            return value
        callee, args, consts, site, names, types, classes, keeps, made = value.init
        self.emit(Call(callee, args, site, consts, receiver=key, names=names, types=types, classes=classes,
                       keeps=keeps, made=made))
        return Obj(value.cls)

    def new_conn(self, key: str, site_node, tcp: bool | None, confidence: str, library: str | None = None) -> Handle:
        """A connection created here (socket(), accept(), new Socket())."""
        self.conns[key] = ConnInfo(key, tcp, confidence, "created")
        self.emit(Bind(key, self.site(site_node)))
        return Handle(key, library=library)

    def conn_for(self, node, evidence: str = "low", by_name: bool = True) -> Handle | None:
        """The connection an expression reaches; an unknown variable or field
        becomes a connection of its own, as sure as its name (unless not
        `by_name`) and the call (`evidence`) make it."""
        if node is None:
            return None
        val = self.expr(node)
        if isinstance(val, Handle):
            return val
        if isinstance(val, Fresh):
            key = self.fe_key(node) or "conn"
            return self.new_conn(key, node, val.tcp, val.confidence, val.library)
        if val is NOT_CONN or isinstance(val, (Const, Pair, Sent, Received, FromRead)):
            return None
        key = self.fe_key(node)
        if key is None:
            return None
        over = self.fe.stream_over(self, key) if ("->" in key or "." in key) and key not in self.conns else None
        if over is not None:  # a member the file makes a buffered stream over another member
            if over not in self.conns:
                self.conns[over] = self._found(over, evidence, by_name)
            return Handle(over, buffered=True)
        if key not in self.conns:
            self.conns[key] = self._found(key, evidence, by_name)
        elif evidence == "medium" and self.conns[key].confidence == "low" and self.conns[key].origin != "either":
            old = self.conns[key]
            self.conns[key] = ConnInfo(old.name, old.tcp, "medium", old.origin, answered=old.answered)
        return Handle(key)

    def _found(self, key: str, evidence: str, by_name: bool) -> ConnInfo:
        """What is known of a connection first met by its name `key` (see `conn_for`)."""
        confidence = evidence
        if confidence == "low" and (by_name and socket_like(key) or self.fe.polled(self.unit, key)):
            confidence = "medium"
        origin = "param" if key in self.params else ("field" if key.startswith(("self.", "this.")) else "unknown")
        tcp = self.fe.made_as(self, key)
        if tcp is not None:  # the file makes what this names, and always of one kind
            confidence = "high" if tcp is False else max(confidence, "medium", key=CONFIDENCES.index)
        elif self.fe.made_both_ways(self, key):
            confidence, origin = "low", "either"
        return ConnInfo(key, tcp, confidence, origin)

    def options_holder(self, node) -> Handle:
        """What an option is set on when it is no connection we can name (a
        bootstrap in a call chain): a stand-in, so that the option is seen."""
        key = "options@" + (str(self.site(node).line) if node is not None else "?")
        self.conns.setdefault(key, ConnInfo(key, None, "low", "unknown"))
        return Handle(key)

    def conn_for_this(self) -> Handle:
        """The object itself, for a call with no receiver inside a socket subclass."""
        if "this" not in self.conns:
            self.conns["this"] = ConnInfo("this", None, "medium", "field")
        return Handle("this")

    def fe_key(self, node) -> str | None:
        key = self.fe.key(self, node) if hasattr(self.fe, "key") else compact(node)
        if not key or len(key) > 80 or "(" in key:
            return None
        return key

    def send(self, handle: Handle, node, size: str, *, gather=False, more=False, partial=False,
             more_if=None) -> None:
        """`partial`: the code tells that the call may write only part of its
        data and comes back for the rest (also when its result is used);
        `more_if`: see `Send.more_if`."""
        self.emit(Send(handle.key, self.site(node), size, handle.buffered, gather, more,
                       partial or result_used(node), more_if, self.sends_rest(handle, node)))

    def sends_rest(self, handle: Handle, node) -> bool:
        """Whether a send's arguments name what an earlier send on the same
        connection returned (see `Send.rest`), or a local copied from an
        expression that does (`char *p = buf + n;`)."""
        args = node.child_by_field_name("arguments") or node
        names = [text(n) for n in descendants(args) if n.type == "identifier"]
        names += [text(n) for name in names if name in self.copies
                  for n in descendants(self.copies[name]) if n.type == "identifier"]
        return any(isinstance(v := self.env.get(name), Sent) and v.conn == handle.key for name in names)

    def flush(self, handle: Handle, node) -> None:
        self.emit(Flush(handle.key, self.site(node)))

    def recv(self, handle: Handle, node, size: str = UNKNOWN) -> None:
        self.emit(Recv(handle.key, self.site(node), size))

    def push(self, handle: Handle, node) -> None:
        self.emit(Push(handle.key, self.site(node)))

    def close(self, handle: Handle, node) -> None:
        """Closing a stream flushes what it buffers, then closes the socket."""
        if handle.buffered:
            self.flush(handle, node)
        self.push(handle, node)

    def set_option(self, handle: Handle, option: str, value_node, node, tunnel: bool = False,
                   option_param: str | None = None) -> None:
        """`tunnel`: the frontend tells that the connection is handed to another layer (see `SetOption`);
        `option_param`: the option is that parameter's, told by each call (`option` is then "")."""
        value = self.truth(value_node) if value_node is not None else None
        param = None
        if value is None and value_node is not None:
            name = _CAST_OR_ADDRESS.sub("", compact(value_node))  # `(char *)&on`: the parameter `on`
            param = name if name in self.params else None
        site = self.site(node)
        setting = False
        if value is None and value_node is not None:
            copied = self.copies.get(_CAST_OR_ADDRESS.sub("", compact(value_node)))
            setting = _names_setting(value_node, option) or (copied is not None and _names_setting(copied, option))
        comment = self.unit.comment_near(site.line)
        if self.node is not None and named_option(self.qualname) == option:
            # A wrapper for the option (`nc_set_tcpnodelay(sd)`): the comment documenting it may say why.
            comment = "\n".join(filter(None, (comment, self.unit.comment_before(self.node.start_byte))))
        self.emit(SetOption(handle.key, option, value, site, comment, param,
                            setting or _gated_by_setting(node, option), self.speaks_interactive(), tunnel,
                            option_param, self.makes_local_pair()))

    def option_table(self, handle: Handle, option_node, value_node=None, node=None) -> None:
        """An option set from a table (`sock.setsockopt(*opt)`, `setsockopt(fd,
        o->level, o->name, &o->value, ...)`): the option named by a variable sets
        what the file's option tables hold, each row where it is written.  One
        named by a parameter (`set_tcp_option(fd, name, value)`) is each call's."""
        if option_node is not None and re.search(r"\b[A-Z][A-Z0-9_]{2,}\b", text(option_node)):
            return  # a constant of its own (SO_KEEPALIVE): no table
        if option_node is not None and value_node is not None and text(option_node) in self.params:
            self.set_option(handle, "", value_node, node, option_param=text(option_node))
            return
        # The tables of the function itself, and those at the top of the file.
        for row, option, value, _ in self.unit.option_rows:
            if self.node is not None and self.node.start_byte <= row.start_byte < self.node.end_byte:
                self.set_option(handle, option, value, row)
        for row, option, value, _ in self.unit.top_option_rows:
            self.set_option(handle, option, value, row)

    def options_named(self, arg_nodes) -> tuple[str | None, ...]:
        """See `Call.options`: the option each argument names by its constant
        (`TCP_NODELAY`, `socket.TCP_NODELAY`), for a setter taking the option."""
        words = [re.split(r"[.:>-]+", text(a))[-1] for a in arg_nodes]
        options = tuple(self.fe.catalogue.options.get(w) if w in OPTION_CONSTANTS else None for w in words)
        return options if any(options) else ()

    def option_call(self, callee: str, node, options=()) -> dict:
        """For a call named for an option (`set_nodelay(fd)`, `enableTcpNoDelay(s)`),
        or passing one to a setter (`set_tcp_option(fd, TCP_NODELAY, 1)`), what
        justifies it at the call: the wrapper is judged where it is called."""
        option = named_option(callee) or next(filter(None, options), None)
        if option is None:
            return {}
        line = self.site(node).line
        return {"comment": self.unit.comment_near(line), "setting": _gated_by_setting(node, option),
                "interactive": self.speaks_interactive()}

    def makes_local_pair(self) -> bool:
        """Whether the function connects one of its sockets to the address another
        is bound to (`b.connect(a.getsockname())`) and accepts a connection itself
        (the other end, `a.accept()`): a socket pair over loopback TCP, a stand-in for
        a pipe, whose bytes (a wake-up) must leave at once. A client of a server the
        function leaves to a thread or a child process is no pair."""
        if self._local_pair is None:
            self._local_pair = self.node is not None and _connects_to_own_address(self)
        return self._local_pair

    def speaks_interactive(self) -> bool:
        """Whether the function, its class or its file is named for an interactive
        protocol, or the file writes that protocol's identification string."""
        stem = os.path.splitext(os.path.basename(self.unit.path))[0]
        return (not INTERACTIVE_PROTOCOLS.isdisjoint(name_words(f"{self.qualname} {stem}"))
                or self.unit.announces_interactive)

    def call_args(self, arg_nodes, guess: bool, named=None, makers: bool = False):
        """(connection keys, constants, names, types, classes, factories) of a call's
        arguments, those passed by position then `named` (name -> node); with `guess`, a
        plain variable the callee may use as a connection gets a key too; with `makers`
        (a constructor's call, which may keep them), the factories that made them (see `Call.made`)."""
        keys, consts, classes, values = [], [], [], []
        unpacked = [UNPACKED if a.type in self.fe.unpacking_types else None for a in arg_nodes]
        names = tuple(unpacked) + tuple(named) if named or any(unpacked) else ()
        for i, a in enumerate([*arg_nodes, *named.values()] if named else arg_nodes):
            v = self._arg_value(a, guess)
            if isinstance(v, Obj) and v.init is not None:  # made where it is passed: its constructor runs here
                v = self.made(v, self.fe_key(a))
            made = v.cls if isinstance(v, Obj) and i < len(arg_nodes) else None
            # An object the caller made is passed by its name: a constructor keeping it in a field
            # keeps that object, whose methods may send or read (see `Call.classes`).
            keys.append(v.key if isinstance(v, Handle) else self.fe_key(a) if made else None)
            classes.append(made)
            values.append(v)
            c = v.value if isinstance(v, Const) else None
            consts.append(bool(c) if isinstance(c, (bool, int)) else None)
            if a.type == "identifier" and text(a) in self.params:
                self.passes_params = True
        return tuple(keys), tuple(consts), names, self.arg_types(arg_nodes), \
            tuple(classes) if any(classes) else (), _factories(values[:len(arg_nodes)]) if makers else ()

    def _arg_value(self, a, guess: bool):
        """An argument's value; with `guess` (or where the variable is used as one), a plain
        variable the callee may use as a connection is one."""
        v = self.expr(a)
        if v is None and a.named_child_count <= 2 and a.type not in self.fe.call_types and (
                guess or self._holds_conns(a) or self._used_as_conn(a)):
            v = self.conn_for(a)
        return v

    def arg_types(self, arg_nodes) -> tuple[str | None, ...]:
        """See `Call.types`: none where the language has no overloads, or no type is known."""
        types = tuple(self.fe.arg_type(self, a) for a in arg_nodes) if self.fe.conversions is not None else ()
        return types if any(types) else ()

    def _used_as_conn(self, node) -> bool:
        """Whether the expression names what this function already took for a
        connection on more than its name alone (`sock = pool.get()` then
        `sock.sendall(...)`): the callee it is passed to, say a response's
        constructor that reads, gets that connection."""
        if not self.fe.used_conns_passed:
            return False
        info = self.conns.get(self.fe_key(node))
        return info is not None and info.confidence != "low"

    def _holds_conns(self, node) -> bool:
        """Whether the expression is an object whose members are connections here (`c` of `c->fd`):
        a function of another file given it may read or write them."""
        if not self.fe.members_passed:
            return False
        key = self.fe_key(node)
        return key is not None and any(k.startswith((key + "->", key.lstrip("&") + ".")) for k in self.conns)

    def local_call(self, callee: str, arg_nodes, node, receiver: str | None = None, named=None) -> Returned:
        """A call to a function of this file (`named`: the arguments passed by name, name -> node)."""
        keys, consts, names, types, classes, _ = self.call_args(arg_nodes, guess=True, named=named)
        options = self.options_named(arg_nodes)
        call = Call(callee, keys, self.site(node), consts, receiver, **self.option_call(callee, node, options),
                    names=names, types=types, classes=classes, options=options,
                    flags=self.fe.flag_words(self, arg_nodes))
        self.emit(call)
        return Returned(call, True)

    def outside_call(self, callee: str, arg_nodes, node, receiver: str | None = None, otherwise=(),
                     named=None) -> Returned:
        """A call that may reach a function of another linted file: kept when it
        passes a connection, is made on an object, or its result is named.
        `otherwise`: the events it makes where it reaches none (see `Call`)."""
        keys, consts, names, types, classes, _ = self.call_args(arg_nodes, guess=False, named=named)
        options = self.options_named(arg_nodes)
        call = Call(callee, keys, self.site(node), consts, receiver, **self.option_call(callee, node, options),
                    otherwise=tuple(otherwise), names=names, types=types, classes=classes, options=options,
                    flags=self.fe.flag_words(self, arg_nodes))
        # An object passed (see `Call.classes`) matters to a method or a constructor, which
        # may keep it in a field, not to a function of no class.
        emitted = receiver is not None or bool(otherwise) or any(
            k is not None and not (i < len(classes) and classes[i]) for i, k in enumerate(keys))
        if emitted:
            self.emit(call)
        elif named_option(callee) is not None:  # judged where it is made (see `option_call`)
            self.emit(replace(call, judged_only=True))
        return Returned(call, emitted)

    def bind_result(self, returned: Returned, key: str) -> Handle:
        """`key = f(...)`: what f returns, if a connection, is now `key`'s."""
        call = replace(returned.call, result=key)
        out = self._out[-1]
        if returned.emitted and out and out[-1] is returned.call:
            out[-1] = call
        else:
            self.emit(call)
        self.conns.setdefault(key, ConnInfo(key, None, "low", "unknown"))
        return Handle(key, made_by=call.callee, given=_given(call))

    def construct(self, cls: str, arg_nodes, node, init: str, named=None) -> Obj:
        """`Client(...)`/`new Client(...)`: an object, whose constructor runs
        where it gets a name (when it may matter: a class of this file, or
        connections among its arguments)."""
        keys, consts, names, types, classes, made = self.call_args(arg_nodes, guess=False, named=named, makers=True)
        if init not in self.unit.function_names and not any(keys):
            return Obj(cls)
        # Kept only for the objects passed: see `Call.keeps`.
        keeps = init not in self.unit.function_names and all(k is None or c for k, c in zip(keys, classes or _NONES))
        return Obj(cls, (init, keys, consts, self.site(node), names, types, classes, keeps, made))

    def literal_truth(self, node, v) -> bool | None:
        """The truth of a value returned, where a literal tells (`v`: `node` evaluated)."""
        if node is not None and node.type in self.fe.null_types:
            return False
        return bool(v.value) if isinstance(v, Const) and isinstance(v.value, (bool, int)) else None

    def truth(self, node) -> bool | None:
        """The truth of an option value: a literal, or a local constant."""
        v = self.expr(node)
        if isinstance(v, Const):
            if isinstance(v.value, bool):
                return v.value
            if isinstance(v.value, int):
                return v.value != 0
        return None


def _failures(events, site: Site, sent: set, given: set) -> tuple:
    """`Failed` for each connection that `events` send on (or that a failure test names
    the result of a send on, `sent`), and, as a call's (see `Failed.call`), for each
    connection a call among them is given or they read (a read that failed, or found
    the peer gone), or `given`."""
    failed, given = set(sent), set(given)
    for ev in walk(events):
        if isinstance(ev, Send):
            failed.add(ev.conn)
        elif isinstance(ev, Call):
            given.update(_given(ev))
        elif isinstance(ev, Recv):
            given.add(ev.conn)
    return tuple(Failed(c, site) for c in sorted(failed)) + tuple(Failed(c, site, call=True)
                                                                  for c in sorted(given - failed))


def _factories(values) -> tuple[str | None, ...]:
    """See `Call.made`: the factory whose result each of the values passed by position is,
    where one is (none known: empty)."""
    made = tuple(v.made_by if isinstance(v, Handle) and _factory(v.made_by) else None for v in values)
    return made if any(made) else ()


def _factory(callee: str | None) -> bool:
    """Whether a call's callee names a function of no class that may make an object
    (`create_transport`), not a method, nor a call through a member or a kept field."""
    return callee is not None and callee.isidentifier()


def _given(call: Call) -> tuple[str, ...]:
    """The connection keys a call is given: its arguments' and its receiver's."""
    return tuple(k for k in (*call.args, call.receiver) if k is not None)


# The names and field paths in an expression's text without blanks (`n`, `c->fd`, `self.sock`).
_NAMES = re.compile(r"[A-Za-z_]\w*(?:(?:->|\.)[A-Za-z_]\w*)*")


def option_named(s: str) -> str | None:
    """The option a constant names (`socket.TCP_NODELAY` -> "nodelay")."""
    words = set(re.findall(r"[A-Z][A-Z0-9_]+", s))
    return "nodelay" if "TCP_NODELAY" in words else "cork" if words & {"TCP_CORK", "TCP_NOPUSH"} else None


def name_words(s: str) -> set[str]:
    """The lower-case words of the identifiers in `s` (camelCase, snake_case):
    `ChannelX11.run` -> {channel, x11, run}."""
    return {w.lower() for w in re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+\d*|[A-Z]+\d*|\d+", s)}


_CAST_OR_ADDRESS = re.compile(r"^(?:\([\w\s*]+\))?[&*]*")


def _names_setting(node, option: str) -> bool:
    """Whether an expression names `option` as a setting (`conf->tcp_nodelay`,
    `config.isTcpNoDelay()`), not as the option constant."""
    names = re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text(node))
    return any(w in n.lower().replace("_", "") for n in names if n not in OPTION_CONSTANTS
               for w in OPTION_WORDS.get(option, ()))


def named_option(name: str) -> str | None:
    """The option a function is named for (`set_nodelay`, `enableTcpNoDelay`), if any."""
    name = name.lower().replace("_", "")
    return next((o for o, words in OPTION_WORDS.items() if any(w in name for w in words)), None)


def _gated_by_setting(node, option: str) -> bool:
    """Whether `node` runs only as a condition naming the option as a setting
    says (`if (mosq->tcp_nodelay) setsockopt(...)`, `conf->tcp_nodelay &&
    set_nodelay(c)`): the user chose it."""
    child, parent = node, node.parent
    while parent is not None:
        cond = parent.child_by_field_name("condition")
        inside = cond is not None and cond.start_byte <= child.start_byte and child.end_byte <= cond.end_byte
        if cond is not None and not inside and not parent.type.startswith("preproc") and _names_setting(cond, option):
            return True
        left = _left_of_and(parent, child)
        if left is not None and _names_setting(left, option):
            return True
        child, parent = parent, parent.parent
    return False


def _left_of_and(parent, child):
    """The left operand of an `&&` (`and`) that `child` is right of: it runs only when that holds."""
    operator, left = parent.child_by_field_name("operator"), parent.child_by_field_name("left")
    if operator is None or left is None or text(operator) not in ("&&", "and") or child.start_byte < left.end_byte:
        return None
    return left


def _base_name(key: str) -> str:
    """The variable a key starts from: `c` of `c->fd`, `self` of `self.sock`."""
    return key.split(".")[0].split("->")[0].split("[")[0]


def result_used(node) -> bool:
    """Whether a call's result is looked at (`n = write(...)`, `if (send(...) < 0)`)."""
    parent = node.parent
    while parent is not None and parent.type in ("parenthesized_expression", "cast_expression"):
        parent = parent.parent
    return parent is not None and parent.type not in ("expression_statement", "block", "compound_statement")


# The names a key is made of but its members' (`c` and `i` of `c->fds[i]`, not `fds`): a local
# variable named like a member (`int sock = fd->sock;`) is no part of the member.
_NAMES_NOT_MEMBERS = re.compile(r"(?<!->)(?<!\.)\b[A-Za-z_][A-Za-z_0-9]*")


def _mentions(key: str, names: set[str]) -> bool:
    if key in names:
        return True
    words = set(_NAMES_NOT_MEMBERS.findall(key))
    return bool(words & names) and not key.startswith(("self.", "this."))


def count_size(n: int | None) -> str:
    """ONE, SMALL or UNKNOWN for a byte count the code gives as a constant."""
    if n is None or n <= 0:
        return UNKNOWN
    return ONE if n == 1 else SMALL if n <= 16 else UNKNOWN


def seconds(node, scale: float) -> float | None:
    """A literal duration in seconds (`scale`: of its unit), None when not a literal."""
    try:
        return float(text(node).replace("_", "").rstrip("LlFfDd")) * scale if node is not None else None
    except ValueError:
        return None


def int_literal(s: str) -> int | None:
    s = s.strip().rstrip("uUlL")
    try:
        return int(s, 0)
    except ValueError:
        try:
            return int(s)
        except ValueError:
            return None


sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
