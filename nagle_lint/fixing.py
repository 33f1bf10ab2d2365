"""--fix and --diff: the fixes of a run's findings applied to their files.

Each file is fixed on its own, in passes: the fixes that do not overlap are
applied, the file is linted again, and the fixes found then (those set
aside, and any new ones) make the next pass, up to MAX_PASSES.  A file is
written once, at the end, atomically, in its own encoding, byte-order mark
and line endings; a file no fix changes is not written.
"""

from __future__ import annotations

import difflib
import os
import stat
import tempfile

from .fixes import SAFE, apply, decode, encode, render

MAX_PASSES = 10


class FileFixes:
    def __init__(self, path: str, before: bytes, after: bytes, fixed: list, how):
        self.path, self.before, self.after, self.how = path, before, after, how
        self.fixed = fixed  # (finding, Fix) in the order applied
        self.changed = after != before


def wanted(fix, unsafe: bool) -> bool:
    return fix.applicability == SAFE or unsafe


def fix_file(path: str, findings, settings, unsafe: bool, keep=None) -> FileFixes | None:
    """The file fixed in memory, or None where it cannot be read.  `keep`:
    which of a file's findings, linted again after a pass, may be fixed
    (see baseline.reported_only); all of them by default."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
        text, how = decode(raw)
    except (OSError, UnicodeError):
        return None
    return FileFixes(path, text, *fix_text(path, text, findings, settings, unsafe, how.newline, keep), how=how)


def fix_text(path: str, text: bytes, findings, settings, unsafe: bool, newline: bytes = b"\n", keep=None):
    """(the text with the fixes applied, pass after pass, (finding, Fix) in the order applied)."""
    from .runner import lint_file

    fixed = []
    for _ in range(MAX_PASSES):
        chosen = [(f, fix) for f, fix in render(path, text, findings) if wanted(fix, unsafe)]
        if not chosen:
            break
        text, applied = apply(text, [fix for _, fix in chosen], newline)
        fixed += [(f, fix) for f, fix in chosen if fix in applied]
        findings = [f for f in lint_file(path, settings, data=text)[1] if f.suppressed is None]
        if keep is not None:
            findings = keep(path, text, findings)
    return text, fixed


def fix_all(result, settings, unsafe: bool, keep=None) -> tuple[list[FileFixes], int]:
    """(the files the shown findings' fixes change, how many more fixes
    --unsafe-fixes would add to the first pass); `keep` as for fix_file."""
    by_path: dict[str, list] = {}
    for f in result.shown:
        if f.proposal is not None:
            by_path.setdefault(f.path, []).append(f)
    out, held_back = [], 0
    for path, findings in sorted(by_path.items()):
        if not unsafe:
            try:
                with open(path, "rb") as fh:
                    held_back += sum(not wanted(fix, False) for _, fix in render(path, decode(fh.read())[0], findings))
            except (OSError, UnicodeError):
                pass
        fixed = fix_file(path, findings, settings, unsafe, keep)
        if fixed is not None and fixed.changed:
            out.append(fixed)
    return out, held_back


def write(fixed: FileFixes) -> None:
    """Replace the file at once (a rename): never half written; its mode kept."""
    target = os.path.realpath(fixed.path)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix="." + os.path.basename(target) + ".",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(encode(fixed.after, fixed.how))
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise


def unified_diff(fixed: FileFixes) -> str:
    """A diff `git apply` (and `patch -p1`) takes, paths as given."""
    name = fixed.path.replace(os.sep, "/").removeprefix("./")
    before = fixed.before.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    after = fixed.after.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    out = []
    for line in difflib.unified_diff(before, after, f"a/{name}", f"b/{name}"):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def listing(files: list[FileFixes]) -> str:
    """--show-fixes: each fix applied, by file and line."""
    from .report.text import printable

    lines = []
    for fixed in files:
        for f, fix in fixed.fixed:
            lines.append(f"{printable(f.path)}:{f.site.line}:{f.site.col}: {f.rule} {fix.title} ({fix.applicability})")
    return "".join(line + "\n" for line in lines)
