"""What the first phase learns of a file: small, so that the many files the
byte scan skips cost next to nothing to send back from a worker, and a run
whose files it all skips never loads the model or the checks."""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own, without importing typing
if TYPE_CHECKING:
    from .languages.choice import Choice
    from .model import FileModel


class Prepared:
    """What phase one learns of a file: its model (None when the bytes show it
    cannot matter), its suppression comments, its syntax errors, the
    seconds of its time budget that reading and lowering it spent (`spent`:
    its checks have the rest), and what the lowering left out (`choice`)."""

    __slots__ = ("path", "model", "marks", "errors", "spent", "choice")

    def __init__(self, path: str, model: FileModel | None, marks: dict, errors: int = 0, spent: float = 0.0,
                 choice: Choice | None = None):
        self.path, self.model, self.marks, self.errors, self.spent = path, model, marks, errors, spent
        self.choice = choice


PARTIAL = "analysed what parsed"  # how the problem of a file with syntax errors ends


def syntax_errors(count: int) -> str:
    """The problem of a file with `count` syntax errors, lowered where it parsed."""
    return f"{count} syntax error{'s' if count != 1 else ''}; {PARTIAL}"


# What read_file gives for every file the byte scan skips: one object, which
# costs next to nothing to send back from a worker, once for many files.
SKIPPED = Prepared("", None, {})
