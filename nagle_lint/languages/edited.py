"""A file lowered again after an edit (an editor's buffer, a keystroke at a
time): the functions the edit left alone are taken from the last lowering,
moved to their lines now, instead of being lowered again.

A function's model is made of its own text, and of a few things of its
file: the other functions of its top-level definition (a class's fields,
an enclosing function's variables) and of its base classes' definitions, the comments just above its lines,
the names of the file's functions, the top-level code (option tables),
and what the frontend reads from the whole text (`Frontend.text_facts`).
So a function is taken over only where the edit lies inside another
top-level definition, before and after it, and those file-wide things
are the same: then it is what lowering it again would make."""

from __future__ import annotations

import re
from itertools import islice
from dataclasses import fields, is_dataclass

from ..site import Site
from .scan import n_is_root


class Earlier:
    """What the last lowering of one file leaves for the next: its text, its
    syntax tree (parsed whole), its functions, its text facts, and the
    syntax errors lowering each function resolved (by name and place)."""

    __slots__ = ("data", "tree", "functions", "facts", "resolved", "taken", "line_of")

    def __init__(self):
        self.data = self.tree = self.functions = self.facts = self.resolved = None
        # Of the last lowering: id of a function taken -> (it, the earlier function it was
        # taken from); the earlier text's line -> the line now (None: one the edit changed).
        self.taken: dict = {}
        self.line_of = None

    def remember(self, data: bytes, tree, functions, facts, resolved) -> None:
        self.data, self.tree, self.functions, self.facts, self.resolved = data, tree, functions, facts, resolved


class _Unmovable(Exception):
    """A line the edit changed: what names it cannot be moved."""


# A connection key named for the line it is made on (`returned@12`, `options@3.fd`).
_LINE_KEY = re.compile(r"([a-z]+)@(\d+)(?=$|[.\[]|->)")


def _moved(obj, line_of):
    """`obj` (a model's function, statement or value) with every line it names
    moved by `line_of` (old line -> new line, or None); the same object where
    nothing moves."""
    move = _MOVERS.get(type(obj))
    if move is None:
        move = _MOVERS[type(obj)] = _mover(type(obj))
    return move(obj, line_of)


def _site(site, line_of):
    line, end = line_of(site.line), line_of(site.end_line)
    if line is None or end is None:
        raise _Unmovable
    return site if line == site.line and end == site.end_line else Site(line, site.col, end, site.end_col)


def _key(key: str, line_of):
    m = _LINE_KEY.match(key) if "@" in key else None
    if m is None:
        return key
    line = line_of(int(m.group(2)))
    if line is None:
        raise _Unmovable
    return key if line == int(m.group(2)) else f"{m.group(1)}@{line}{key[m.end():]}"


def _items(items, line_of):
    out = None  # made only once an item moves: most hold no line
    for i, item in enumerate(items):
        new = _moved(item, line_of)
        if out is None and new is not item:
            out = list(islice(items, i))
        if out is not None:
            out.append(new)
    return items if out is None else type(items)(out)


def _mapping(items: dict, line_of):
    keys, values = tuple(items), tuple(items.values())
    new_keys, new_values = _items(keys, line_of), _items(values, line_of)
    return items if new_keys is keys and new_values is values else dict(zip(new_keys, new_values))


def _same(obj, line_of):
    return obj


def _mover(cls):
    """How to move an object of a model's class: each field but a comment's
    text (no key, whatever it says), made anew only where one moved."""
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):  # a named tuple (a point of the analysis)
        def move_fields(obj, line_of):
            values = tuple(obj)
            moved = _items(values, line_of)
            return obj if moved is values else cls._make(moved)

        return move_fields
    if not is_dataclass(cls):
        return _same
    names = [f.name for f in fields(cls)]
    movable = [i for i, name in enumerate(names) if name != "comment"]

    def move(obj, line_of):
        values = None
        for i in movable:
            value = getattr(obj, names[i])
            if value is None or value is True or value is False:
                continue
            new = _moved(value, line_of)
            if new is not value:
                if values is None:
                    values = [getattr(obj, name) for name in names]
                values[i] = new
        return obj if values is None else cls(*values)

    return move


_MOVERS = {Site: _site, str: _key, tuple: _items, frozenset: _items, set: _items, dict: _mapping}


def _common(a: bytes, b: bytes) -> tuple[int, int]:
    """(bytes the two texts start with in common, bytes they then end with in common)."""
    start = _longest(min(len(a), len(b)), lambda k: a[:k] == b[:k])
    return start, _longest(min(len(a), len(b)) - start, lambda k: a[len(a) - k:] == b[len(b) - k:])


def _longest(n: int, holds) -> int:
    """The largest k up to `n` for which `holds(k)`, true up to some k and false past it:
    found by halves, as each test (a comparison of bytes) is one memcmp."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if holds(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _point(data: bytes, offset: int) -> tuple[int, int]:
    """(row, byte column) of an offset, as tree-sitter counts."""
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def edited_tree(earlier: Earlier, data: bytes):
    """A copy of the earlier text's tree told of the edit that made `data`
    (the earlier tree is left as it is), or None."""
    old = earlier.data
    if old is None or earlier.tree is None:
        return None
    start, same_end = _common(old, data)
    old_end, new_end = len(old) - same_end, len(data) - same_end
    tree = earlier.tree.copy()
    tree.edit(start, old_end, new_end, _point(old, start), _point(old, old_end), _point(data, new_end))
    return tree


def _holding(root, start: int, end: int):
    """The top-level node of a tree whose text holds the bytes [start, end), or None."""
    for child in root.children:
        if child.start_byte <= start and end <= child.end_byte:
            return child
        if child.start_byte > start:
            break
    return None


def _only_comments(root, start: int, end: int) -> bool:
    """Whether the bytes [start, end) of a tree's text meet no top-level
    node but comments (the rest is blank)."""
    return all("comment" in child.type for child in root.children if child.start_byte < end and start < child.end_byte)


def _top(node, root):
    while node.parent is not None and node.parent != root:
        node = node.parent
    return node


class _Lines:
    """How an edit of whole lines moves the others: the lines up to `before`
    stay, those from `first_after` on (counted now) moved by `shift`, and
    those between are the edit's."""

    __slots__ = ("before", "first_after", "shift")

    def __init__(self, old: bytes, data: bytes, start: int, old_end: int, new_end: int):
        start = data.rfind(b"\n", 0, start) + 1  # in whole lines
        rest = data.find(b"\n", new_end)
        tail = (rest + 1 if rest >= 0 else len(data)) - new_end
        self.before = data.count(b"\n", 0, start)
        self.first_after = data.count(b"\n", 0, new_end + tail) + 1
        self.shift = self.first_after - 1 - old.count(b"\n", 0, old_end + tail)

    def new(self, line: int) -> int | None:
        """The line now of the earlier text's `line` (None: the edit changed it)."""
        return line if line <= self.before else line + self.shift if line + self.shift >= self.first_after else None

    def old(self, line: int) -> int | None:
        """The earlier text's line of `line` now (None: the edit changed it)."""
        return line if line <= self.before else line - self.shift if line >= self.first_after else None

    def edited(self, first: int, last: int) -> bool:
        """Whether the lines `first`..`last` (now) hold the edit's, or lines on both sides of it."""
        return not (last <= self.before or first >= self.first_after)


def _lines_moved(earlier: Earlier, unit, facts) -> _Lines | None:
    """How the edit from the earlier text to the `unit`'s moves its lines,
    where the edit leaves the file-wide things as they were (see the
    module's doc); else None."""
    old, data = earlier.data, unit.src.data
    if old is None or earlier.tree is None or facts is None or earlier.facts != facts or \
            {fn.qualname for fn in earlier.functions} != unit.function_names:
        return None
    start, same_end = _common(old, data)
    new_end, old_end = len(data) - same_end, len(old) - same_end
    if old != data:
        # The edit lies inside one top-level definition, before and after, or
        # between them, in comments and blank lines: the top-level code and
        # the other definitions are the same.
        now, then = _holding(unit.tree.root_node, start, new_end), _holding(earlier.tree.root_node, start, old_end)
        inside = now is not None and then is not None and now.start_byte == then.start_byte and now.type == then.type
        if not inside and not (_only_comments(unit.tree.root_node, start, new_end)
                               and _only_comments(earlier.tree.root_node, start, old_end)):
            return None
    return _Lines(old, data, start, old_end, new_end)


def _groups(unit, found) -> list[list[int]]:
    """The functions of `found` (by index) that are taken together or not at
    all: those of one top-level definition, and a class's with its base
    classes' of the file (a subclass's methods see what its bases' methods
    set on their fields)."""
    top = {}  # top-level name -> the name of its group
    for cls, bases in unit.bases.items():
        names = {top.get(n, n) for n in [cls.split(".", 1)[0], *(b.split(".", 1)[0] for b in bases)]}
        group = min(names)
        top.update({n: group for n, g in list(top.items()) if g in names} | dict.fromkeys(names, group))
    groups: dict[str, list[int]] = {}
    for i, (q, node, _) in enumerate(found):
        if not n_is_root(q):
            name = q.split(".", 1)[0]
            groups.setdefault(top.get(name, name), []).append(i)
    return list(groups.values())


def _span(unit, node) -> tuple[int, int]:
    """The first and last lines of `node`'s top-level definition, with the
    comments just above it (see `Unit.comment_near`)."""
    top = _top(node, unit.tree.root_node)
    first, last = top.start_point[0] + 1, top.end_point[0] + 1
    while True:
        above = next((n for n in (first - 1, first - 2) if n in unit.comment_lines), None)
        if above is None:
            return first, last
        first = above


def unchanged(earlier: Earlier, unit, found, relevant, facts) -> dict:
    """Index in `found` -> (the function taken from the `earlier` lowering,
    the syntax errors lowering it resolved), for
    the functions worth lowering (`relevant`) that the edit from
    `earlier.data` to the `unit`'s text leaves as they were (see the
    module's doc); `facts`: the text facts of the `unit`, whose tree is its
    text parsed whole (None where it was parsed in parts: none is taken)."""
    earlier.taken, earlier.line_of = {}, None
    lines = _lines_moved(earlier, unit, facts)
    if lines is None:
        return {}
    earlier.line_of = lines.new
    by_place = {(fn.qualname, fn.site.line, fn.site.col): fn for fn in earlier.functions if fn.body}
    kept = {}
    for members in _groups(unit, found):
        taken = {}
        for i in members:
            q, node, _ = found[i]
            if q not in relevant:
                continue
            if lines.edited(*_span(unit, node)):
                break
            site = unit.src.site(node)
            fn = by_place.get((q, lines.old(site.line), site.col))
            try:
                moved = _moved(fn, lines.new) if fn is not None else None
            except _Unmovable:
                moved = None
            if moved is None:
                break
            taken[i] = moved, earlier.resolved.get((q, fn.site.line, fn.site.col), 0)
            earlier.taken[id(moved)] = moved, fn
        else:
            kept.update(taken)
    return kept
