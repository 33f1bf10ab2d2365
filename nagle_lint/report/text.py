"""`path:line:col: NGL001 message`, one finding a line (the concise format),
for editors, pipes and log files."""

from __future__ import annotations


def printable(text: str) -> str:
    """A path as one line: control characters escaped, so that a file name
    cannot start a line of its own (a CI workflow command, say)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def suppressed_note(f) -> str:
    """` (suppressed: reason)` after a suppressed finding's message, else nothing."""
    return "" if f.suppressed is None else f" (suppressed: {f.suppressed})"


def render(result, **_) -> str:
    return "".join(f"{printable(f.path)}:{f.site.line}:{f.site.col}: {f.rule} {f.message}{suppressed_note(f)}\n"
                   for f in result.findings)


def summary(result) -> str:
    shown = result.shown
    warnings = sum(1 for f in shown if f.level == "warning")
    notes = len(shown) - warnings
    files = f"{result.files} file{'s' if result.files != 1 else ''}"
    if not shown:
        return f"No findings in {files}."
    suppressed = len(result.findings) - len(shown)
    extra = f", {suppressed} suppressed" if suppressed else ""
    return f"Found {len(shown)} finding{'s' if len(shown) != 1 else ''} ({warnings} warning{'s' if warnings != 1 else ''}, {notes} note{'s' if notes != 1 else ''}{extra}) in {files}."
