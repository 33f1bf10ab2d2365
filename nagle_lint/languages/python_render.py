"""Python's fixes as source text: two sendall()s joined into one, a buffered
stream flushed once per message, MSG_MORE dropped."""

from __future__ import annotations

from ..fixes import DROP_MORE, JOIN, SAFE, UNCORK, UNSAFE, Edit, Fix
from .base import descendants
from .render import Parsed, after, movable, names_in, next_statement, pauses, statements_between, without_flag

# The argument of a send, when it needs no parentheses around it as an operand of `+`.
ATOMS = frozenset({"identifier", "string", "concatenated_string", "call", "attribute", "subscript",
                   "parenthesized_expression", "list", "tuple"})
TIGHTER_THAN_PLUS = frozenset({"*", "/", "//", "%", "@", "**"})
# What a send may move past (see render.movable): plain statements (assignments, calls), where
# control does not leave nor wait for another task.
SIMPLE = frozenset({"expression_statement", "pass_statement"})
BARRIERS = frozenset({"yield", "await", "lambda"})


def render(fe, data: bytes, proposals) -> list:
    parsed = Parsed(fe, data)
    return [_one(parsed, p) for p in proposals]


def _one(parsed: Parsed, proposal):
    if proposal.kind == JOIN:
        return _join(parsed, *proposal.sites)
    if proposal.kind == DROP_MORE:
        return _drop_more(parsed, proposal.sites[0])
    if proposal.kind == UNCORK:
        return _uncork(parsed, *proposal.sites)
    return None


def _statement_call(parsed: Parsed, site, assigned: bool = False):
    """(call, receiver text, method, argument nodes, statement) of
    `recv.method(...)` at `site`, written as a statement of its own (or,
    `assigned`, as the value of one: `sent = recv.method(...)`), else None."""
    call = parsed.node_at(site, ("call",))
    statement = call.parent if call is not None else None
    if assigned and statement is not None and statement.type == "assignment" \
            and statement.child_by_field_name("right") == call:
        statement = statement.parent
    if statement is None or statement.type != "expression_statement" \
            or statement.named_child_count != 1 or _shares_line(statement):
        return None
    fn = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    if fn is None or fn.type != "attribute" or args is None or args.type != "argument_list":
        return None
    return (call, parsed.text(fn.child_by_field_name("object")), parsed.text(fn.child_by_field_name("attribute")),
            [a for a in args.named_children if a.type != "comment"], statement)


def _shares_line(statement) -> bool:
    """`a; b`: deleting one would leave a stray `;`."""
    return any(n is not None and n.type == ";" for n in (statement.next_sibling, statement.prev_sibling))


def _send(parsed: Parsed, site, assigned: bool = False):
    """(call, receiver text, method, the payload node, statement) of
    `recv.sendall(payload)` (or another of the catalogue's joinable sends)
    written as a statement of its own, or (`assigned`) one whose value is
    looked at only where it says nothing of the payload (a whole send's
    None), else None."""
    found = _statement_call(parsed, site, assigned)
    if found is None:
        return None
    call, receiver, method, args, statement = found
    if method not in parsed.catalogue.joinable_sends or len(args) != 1 \
            or args[0].type in ("keyword_argument", "list_splat") \
            or call.parent.type == "assignment" and method not in parsed.catalogue.whole_sends:
        return None
    return call, receiver, method, args[0], statement


def _join(parsed: Parsed, first_site, second_site):
    first, second = _send(parsed, first_site), _send(parsed, second_site, assigned=True)
    if first is None or second is None:
        return _flush_once(parsed, first_site, second_site)
    if first[1] != second[1]:
        return None
    statement, a, b = first[4], first[3], second[3]
    between = statements_between(statement, second[4])
    if between is None or pauses(parsed, between, parsed.catalogue.sleeps, "call") \
            or not movable(parsed, between, SIMPLE, BARRIERS, _touched(parsed, first[0]) | names_in(parsed, a)):
        return None  # what lies between uses the connection or the first payload, or paces the pieces
    joined = f"{_operand(parsed, a, left=True)} + {_operand(parsed, b, left=False)}"
    # sendall() sends it all or raises, as the two did; send() may send part of it (its result unread).
    # With code between, the first piece now waits for it (and is not sent if it raises). Joined, both
    # pieces go through the second call (send() then sendall(): the first piece is now sent whole).
    whole = parsed.catalogue.whole_sends
    safe = not between and first[2] in whole and second[2] in whole and _is_bytes(parsed, a) and _is_bytes(parsed, b)
    moved = f", after the {len(between)} statement{'s' if len(between) != 1 else ''} between them" if between else ""
    calls = f"two {first[2]}() calls" if first[2] == second[2] else f"{first[2]}() and {second[2]}() calls"
    return Fix(f"join the {calls} into one{moved}: {first[1]}.{second[2]}({joined})",
               SAFE if safe else UNSAFE, (parsed.delete(statement), Edit(b.start_byte, b.end_byte, joined)))


def _touched(parsed: Parsed, call) -> set[str]:
    """The names that may reach the connection of a call: its receiver's
    (`sock`; `self`, `conn` of `self.conn`), and in the function around it
    those of whatever it was made from or made from it (`sock` of `wfile =
    sock.makefile("wb")`, then `rfile` of `rfile = sock.makefile("rb")`)."""
    names = names_in(parsed, call.child_by_field_name("function").child_by_field_name("object"))
    scope = call
    while scope.parent is not None and scope.type != "function_definition":
        scope = scope.parent
    bindings = [(names_in(parsed, left), names_in(parsed, right)) for left, right in _bindings(scope)]
    grown = True
    while grown:
        grown = False
        for left, right in bindings:
            if (left & names or right & names) and not (left | right) <= names:
                names |= left | right
                grown = True
    return names


def _bindings(node):
    """(target, value) of each assignment and `with ... as` under `node`."""
    for n in descendants(node):
        if n.type == "assignment" and n.child_by_field_name("right") is not None:
            yield n.child_by_field_name("left"), n.child_by_field_name("right")
        elif n.type == "as_pattern" and n.child_by_field_name("alias") is not None:
            yield n.child_by_field_name("alias"), n.named_children[0]


def _flush_once(parsed: Parsed, first_site, second_site):
    """Two flushes of a buffered stream with only its writes between: the
    first goes, and the message leaves whole at the second (the same bytes,
    in the same order, from the same buffer)."""
    cat = parsed.catalogue
    first, second = _statement_call(parsed, first_site), _statement_call(parsed, second_site)
    if first is None or second is None or first[2] not in cat.flushes or first[3] \
            or second[2] not in cat.flushes | cat.closes or first[1] != second[1]:
        return None
    stream, statement = first[1], first[4]
    between = statements_between(statement, second[4])
    writes = [s for s in between or () if _writes_to(parsed, s, stream)]
    if not writes:
        return None
    # Anything else between must leave the connection alone: the first flush may be meant for it.
    others = [s for s in between if s not in writes]
    if not movable(parsed, others, SIMPLE, BARRIERS, _touched(parsed, first[0])):
        return None
    return Fix(f"flush '{stream}' once, after the whole message: the {first[2]}() between its writes goes",
               UNSAFE if others else SAFE, (parsed.delete(statement),))


def _writes_to(parsed: Parsed, statement, stream: str) -> bool:
    write = statement.named_children[0] if statement.type == "expression_statement" else None
    fn = write.child_by_field_name("function") if write is not None and write.type == "call" else None
    return fn is not None and fn.type == "attribute" and parsed.text(fn.child_by_field_name("object")) == stream \
        and parsed.text(fn.child_by_field_name("attribute")) in parsed.catalogue.stream_writes


def _operand(parsed: Parsed, node, left: bool) -> str:
    t = parsed.text(node)
    if node.type in ATOMS:
        return t
    if node.type == "binary_operator":
        op = parsed.text(node.child_by_field_name("operator"))
        if op in TIGHTER_THAN_PLUS or left and op in ("+", "-"):
            return t
    return f"({t})"


def _is_bytes(parsed: Parsed, node, seen=frozenset()) -> bool:
    """Whether the expression is bytes for sure: a b"" literal, a call of
    the catalogue's `bytes_calls` (bytes(), .encode()), +, * or % of those,
    or a name only ever assigned such values in the file."""
    t = node.type
    if t == "parenthesized_expression":
        return node.named_child_count == 1 and _is_bytes(parsed, node.named_children[0], seen)
    if t == "string":
        return parsed.text(node).lstrip("rR")[:1] in ("b", "B")
    if t == "concatenated_string":
        return all(_is_bytes(parsed, c, seen) for c in node.named_children)
    if t == "call":
        fn = node.child_by_field_name("function")
        calls = parsed.catalogue.bytes_calls
        return parsed.text(fn) in calls or fn.type == "attribute" \
            and "." + parsed.text(fn.child_by_field_name("attribute")) in calls
    if t == "binary_operator":
        op = parsed.text(node.child_by_field_name("operator"))
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op == "+":
            return _is_bytes(parsed, left, seen) and _is_bytes(parsed, right, seen)
        if op in ("*", "%"):
            return _is_bytes(parsed, left, seen) or op == "*" and _is_bytes(parsed, right, seen)
        return False
    if t == "identifier":
        name = parsed.text(node)
        if name in seen:
            return False
        values = list(_assigned(parsed, parsed.root, name))
        return bool(values) and all(v is not None and _is_bytes(parsed, v, seen | {name}) for v in values)
    return False


# Statements that bind a name otherwise than by `name = value` (-> the field holding the names bound).
BINDERS = {"augmented_assignment": "left", "for_statement": "left", "named_expression": "name", "as_pattern": "alias",
           "for_in_clause": "left", "global_statement": None, "nonlocal_statement": None, "parameters": None}


def _assigned(parsed: Parsed, node, name: str):
    """The values assigned to `name` anywhere in the file; None for a binding
    whose value is not written there (a parameter, a loop variable, `+=`,
    unpacking)."""
    for child in node.named_children:
        if child.type == "assignment" and child.child_by_field_name("left") is not None:
            left = child.child_by_field_name("left")
            if left.type == "identifier":
                if parsed.text(left) == name:
                    yield child.child_by_field_name("right")
            elif name in names_in(parsed, left):
                yield None
        elif child.type in BINDERS:
            bound = child.child_by_field_name(BINDERS[child.type]) if BINDERS[child.type] else child
            if bound is not None and name in names_in(parsed, bound):
                yield None
        yield from _assigned(parsed, child, name)


def _drop_more(parsed: Parsed, site):
    call = parsed.node_at(site, ("call",))
    if call is None:
        return None
    args = call.child_by_field_name("arguments")
    if args is None:
        return None
    for i, arg in enumerate(args.named_children):
        flags = arg.child_by_field_name("value") if arg.type == "keyword_argument" else arg
        named = [] if i == 0 or flags is None else [f for f in parsed.catalogue.more_flags if f in parsed.text(flags)]
        if not named:
            continue
        rest = without_flag(parsed, flags, named[0], "binary_operator",
                            lambda n: parsed.text(n.child_by_field_name("operator"))) if len(named) == 1 else None
        if rest is None:
            return None
        last = i == args.named_child_count - 1
        if rest or not (last or arg.type == "keyword_argument"):
            edit = Edit(flags.start_byte, flags.end_byte, rest or "0")
        else:  # no flag left: the argument goes, with the comma before it
            before = arg.prev_sibling
            edit = Edit(before.start_byte if before is not None and before.type == "," else arg.start_byte,
                        arg.end_byte, "")
        return Fix(f"send the last piece without {named[0]}", SAFE, (edit,))
    return None


def _uncork(parsed: Parsed, cork_site, held_site):
    """`sock.setsockopt(level, TCP_CORK, 1)` and, later in its block, the
    sends it holds: the same call with 0 after the last send of their run."""
    cork, held = _statement_call(parsed, cork_site), _statement_call(parsed, held_site)
    cat = parsed.catalogue
    if cork is None or held is None or cork[2] not in cat.option_setters or len(cork[3]) != 3 \
            or held[1] != cork[1] or cork[4].parent != held[4].parent:
        return None
    last = held[4]
    while (following := next_statement(last)) is not None and _sends_on(parsed, following, cork[1]):
        last = following
    value = cork[3][2]
    release = (parsed.data[cork[0].start_byte:value.start_byte].decode("utf-8", "replace") + "0"
               + parsed.data[value.end_byte:cork[0].end_byte].decode("utf-8", "replace"))
    return Fix(f"turn the cork off after the last send of the message: {release}", UNSAFE,
               (after(parsed, last, release),))


def _sends_on(parsed: Parsed, statement, receiver: str) -> bool:
    call = statement.named_children[0] if statement.type == "expression_statement" else None
    fn = call.child_by_field_name("function") if call is not None and call.type == "call" else None
    return fn is not None and fn.type == "attribute" and parsed.text(fn.child_by_field_name("object")) == receiver \
        and parsed.text(fn.child_by_field_name("attribute")) in parsed.catalogue.all_sends
