"""What the first phase learns of a file, and what later rounds ask of the
files it skipped: small, so that a file the byte scan skips loads no model."""

from __future__ import annotations

from dataclasses import dataclass, field

TYPE_CHECKING = False  # typing's own, without importing typing
if TYPE_CHECKING:
    from .model import FileModel


@dataclass
class Prepared:
    """What phase one learns of a file: its model (None when the bytes show it
    cannot matter), its suppression comments, its syntax errors."""

    path: str
    model: FileModel | None
    marks: dict
    errors: int = 0


# What read_file gives for every file the byte scan skips: one object, which
# costs next to nothing to send back from a worker, once for many files.
SKIPPED = Prepared("", None, {})


@dataclass(frozen=True)
class Wanted:
    """What makes a file the byte scan skipped matter after all: it names a
    function other files call but none defines (`needed`: it may define it),
    or it calls a function that touches a connection (`effects`) and shows
    socket code of its own (a read, a socket made or accepted)."""

    needed: frozenset = frozenset()
    effects: frozenset = frozenset()
    # Files already lowered that hold a stub another file calls: lowered again.
    again: frozenset = frozenset()
    # needed name -> the folders of its callers (a name many files define
    # resolves only to the definition in the caller's folder)
    callers: dict = field(default_factory=dict, compare=False)

    def __bool__(self):
        return bool(self.needed or self.effects or self.again)
