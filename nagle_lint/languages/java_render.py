"""Java's fixes as source text: the raw socket stream that two writes split
a message on is buffered where it is created, and flushed after each run of
writes (the message), so that it leaves whole before the read."""

from __future__ import annotations

import re

from ..fixes import JOIN, UNSAFE, Edit, Fix
from .render import Parsed, after, next_statement

METHODS = ("method_declaration", "constructor_declaration", "lambda_expression", "static_initializer")
IMPORTED = re.compile(rb"^\s*import\s+java\.io\.(?:BufferedOutputStream|\*)\s*;", re.MULTILINE)


def render(fe, data: bytes, proposals) -> list:
    parsed = Parsed(fe, data)
    return [_buffer(parsed, *p.sites) if p.kind == JOIN else None for p in proposals]


def _write(parsed: Parsed, site):
    """(statement, stream name) of `name.write(...);` (a stream write of the catalogue) at `site`, else None."""
    call = parsed.node_at(site, ("method_invocation",))
    if call is None or parsed.text(call.child_by_field_name("name")) not in parsed.catalogue.stream_writes:
        return None
    obj = call.child_by_field_name("object")
    if obj is None or obj.type != "identifier" or call.parent.type != "expression_statement":
        return None
    return call.parent, parsed.text(obj)


def _buffer(parsed: Parsed, first_site, second_site):
    first, second = _write(parsed, first_site), _write(parsed, second_site)
    if first is None or second is None or first[1] != second[1] or next_statement(first[0]) != second[0]:
        return None
    name = first[1]
    body = first[0]
    while body is not None and body.type not in METHODS:
        body = body.parent
    uses = _uses(parsed, body, name) if body is not None else None
    if uses is None:
        return None
    created, writes = uses
    if len(created) != 1 or created[0] is None or created[0].type != "method_invocation" \
            or not _raw_stream(parsed.catalogue, parsed.text(created[0].child_by_field_name("name"))):
        return None
    value = created[0]
    edits = [Edit(value.start_byte, value.end_byte, f"new BufferedOutputStream({parsed.text(value)})")]
    for last in _run_ends(parsed, writes, name):
        edits.append(after(parsed, last, f"{name}.flush();"))
    if not IMPORTED.search(parsed.data):
        edits.insert(0, _import(parsed))
    return Fix(f"buffer '{name}' (a BufferedOutputStream where it is created) and flush it after each message: "
               "data written elsewhere without a flush would wait", UNSAFE, tuple(edits))


def _uses(parsed: Parsed, body, name: str):
    """(the values `name` is given, its write statements) in a method's `body`,
    or None where it is used otherwise than written, flushed or closed (handed
    elsewhere: what it writes there would wait in the buffer) or a write's
    statement cannot be followed by a flush."""
    cat = parsed.catalogue
    uses = cat.stream_writes | cat.flushes | cat.closes  # what may be done with the stream for the fix to hold
    created, writes = [], []
    for node in _identifiers(body, name, parsed):
        parent = node.parent
        given = _given(parent, node)
        if given is not False:
            created.append(given)
        elif parent.type == "method_invocation" and parent.child_by_field_name("object") == node \
                and parsed.text(parent.child_by_field_name("name")) in uses:
            if parsed.text(parent.child_by_field_name("name")) in cat.stream_writes:
                if parent.parent.type != "expression_statement" or parent.parent.parent.type != "block":
                    return None
                writes.append(parent.parent)
        else:
            return None
    return created, writes


def _given(parent, node):
    """The value `node` (a name) is given where it is declared or assigned, else False."""
    if parent.type in ("variable_declarator", "resource") and parent.child_by_field_name("name") == node:
        return parent.child_by_field_name("value")
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == node:
        return parent.child_by_field_name("right")
    return False


def _raw_stream(cat, method: str) -> bool:
    """`socket.getOutputStream()`: a connection's own stream, which buffers nothing (the catalogue's
    unbuffered wrappers that only a socket has)."""
    return method in cat.socket_only and cat.wrappers.get(method) is False


def _identifiers(node, name: str, parsed: Parsed):
    if node.type == "identifier" and parsed.text(node) == name:
        yield node
    for child in node.named_children:
        yield from _identifiers(child, name, parsed)


def _run_ends(parsed: Parsed, writes, name: str):
    """The last write of each run of writes one after the other, where no flush follows it."""
    ids = {w.id for w in writes}
    for w in writes:
        after = next_statement(w)
        if after is not None and after.id in ids:
            continue
        if after is not None and "".join(parsed.text(after).split()) == f"{name}.flush();":
            continue
        yield w


def _import(parsed: Parsed) -> Edit:
    """`import java.io.BufferedOutputStream;` after the last import (or the package line)."""
    tops = [n for n in parsed.root.named_children if n.type in ("import_declaration", "package_declaration")]
    imports = [n for n in tops if n.type == "import_declaration"] or tops
    if not imports:
        return Edit(0, 0, "import java.io.BufferedOutputStream;\n")
    at = imports[-1].end_byte
    return Edit(at, at, "\nimport java.io.BufferedOutputStream;")
