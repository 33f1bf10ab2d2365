"""What the frontends' renderers of fixes share: the file parsed again, the
node at a model site, statements, lines and indentation, edits."""

from __future__ import annotations

from ..fixes import Edit
from .base import descendants


class Parsed:
    """A file parsed for rendering fixes."""

    def __init__(self, fe, data: bytes):
        self.data = data
        self.catalogue = getattr(fe, "catalogue", None)  # the language's socket knowledge (catalogue.py)
        self.root = fe.parse(data).root_node
        self.line_starts = [0]
        for i, b in enumerate(data):
            if b == 10:
                self.line_starts.append(i + 1)

    def text(self, node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def point(self, line: int, col: int) -> tuple[int, int]:
        """A model position (1-based line, 1-based character column) as tree-sitter's (row, byte column)."""
        start = self.line_starts[line - 1] if line - 1 < len(self.line_starts) else len(self.data)
        prefix = self.data[start:].split(b"\n", 1)[0].decode("utf-8", "replace")[:col - 1]
        return line - 1, len(prefix.encode("utf-8"))

    def node_at(self, site, types) -> object | None:
        """The node of one of `types` that spans exactly `site`."""
        a, b = self.point(site.line, site.col), self.point(site.end_line, site.end_col)
        node = self.root.descendant_for_point_range(a, b)
        while node is not None and (node.start_point, node.end_point) == (a, b):
            if node.type in types:
                return node
            node = node.parent
        return None

    def line_start(self, offset: int) -> int:
        return self.data.rfind(b"\n", 0, offset) + 1

    def line_end(self, offset: int) -> int:
        """The offset just past the line's break (or the end of the file)."""
        end = self.data.find(b"\n", offset)
        return len(self.data) if end < 0 else end + 1

    def indent(self, node) -> str:
        start = self.line_start(node.start_byte)
        line = self.data[start:node.start_byte].decode("utf-8", "replace")
        return line[:len(line) - len(line.lstrip())]

    def delete(self, node) -> Edit:
        """Remove a statement; its line too, where nothing but blanks (or a
        comment, which stays) is left on it."""
        start, end = node.start_byte, node.end_byte
        before = self.data[self.line_start(start):start]
        after_end = self.line_end(end)
        after = self.data[end:after_end]
        if before.strip() == b"" and after.strip() == b"":
            return Edit(self.line_start(start), after_end, "")
        rest = after.lstrip(b" \t")
        return Edit(start, end + len(after) - len(rest), "")


def after(parsed: Parsed, statement, text: str) -> Edit:
    """A statement of its own after `statement`: on the next line where only blanks or a comment follow it."""
    end = parsed.line_end(statement.end_byte)
    rest = parsed.data[statement.end_byte:end].strip()
    if rest and not rest.startswith((b"//", b"/*", b"#")) or not parsed.data[:end].endswith(b"\n"):
        return Edit(statement.end_byte, statement.end_byte, f"\n{parsed.indent(statement)}{text}")
    return Edit(end, end, f"{parsed.indent(statement)}{text}\n")


def step_in(indent: str) -> str:
    """One level deeper than `indent`, in its own style."""
    return indent + ("\t" if indent.startswith("\t") else "    ")


def next_statement(node, skip=("comment", "line_comment", "block_comment")):
    """The statement after `node` in its block, past comments, or None."""
    sibling = node.next_named_sibling
    while sibling is not None and sibling.type in skip:
        sibling = sibling.next_named_sibling
    return sibling


def statements_between(first, second, skip=("comment", "line_comment", "block_comment")) -> list | None:
    """The statements after `first` and before `second` in one block (past
    comments), or None where `second` does not follow `first` there."""
    out, node = [], next_statement(first, skip)
    while node is not None and node != second:
        out.append(node)
        node = next_statement(node, skip)
    return None if node is None else out


def names_in(parsed: Parsed, node, types=("identifier",)) -> set[str]:
    """The names written in `node` (identifiers, and the `types` given)."""
    return {parsed.text(n) for n in descendants(node) if n.type in types}


def has_type(node, types) -> bool:
    """Whether `node` holds a node of one of `types` (named node types)."""
    return any(n.type in types for n in descendants(node))


def movable(parsed: Parsed, statements, simple, barriers, names: set[str]) -> bool:
    """Whether a send may move past `statements` (or its flush go): each is
    one of the `simple` statement types, none holds one of `barriers`
    (control leaving, a yield), and none names any of `names` (the
    connection, what the moved send reads): code that neither touches the
    connection nor what is sent.  A call between may still do anything:
    such an edit is unsafe."""
    return all(s.type in simple and not has_type(s, barriers) and not names_in(parsed, s) & names
               for s in statements)


def pauses(parsed: Parsed, statements, sleeps, call_type: str) -> bool:
    """Whether one of `statements` calls one of `sleeps` (as written): a
    pause between two sends paces them on purpose (a device that needs the
    time), and they stay apart."""
    return any(n.type == call_type and parsed.text(n.child_by_field_name("function")) in sleeps
               for s in statements for n in descendants(s))


def or_operands(node, binary_type: str, operator_of) -> list | None:
    """The operands of a chain of `|` (`A | B | C`), or None where `node`
    is more than that."""
    if node.type == binary_type and operator_of(node) == "|":
        left = or_operands(node.child_by_field_name("left"), binary_type, operator_of)
        right = or_operands(node.child_by_field_name("right"), binary_type, operator_of)
        return None if left is None or right is None else left + right
    if node.type in ("identifier", "attribute", "field_access", "integer", "number_literal",
                     "parenthesized_expression"):
        return [node]
    return None


def without_flag(parsed: Parsed, flags, flag: str, binary_type: str, operator_of) -> str | None:
    """The text of flags expression `flags` without `flag` (an identifier,
    maybe qualified: socket.MSG_MORE): "" where nothing is left, None where
    it is not a plain `|` of flags that names it."""
    operands = or_operands(flags, binary_type, operator_of)
    if operands is None:
        return None
    named = [o for o in operands if parsed.text(o).rsplit(".", 1)[-1] == flag]
    if len(named) != 1:
        return None
    return " | ".join(parsed.text(o) for o in operands if o is not named[0])
