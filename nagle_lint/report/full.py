"""Each finding with its source lines, as ruff's `full` output shows them:
carets under the second send (labelled with the rule) and under the finding's
related locations (the first send, the read), each labelled.  Coloured with
ANSI escapes when asked (the command asks on a terminal without NO_COLOR).

    split.py:7:5: NGL001 second send on 'sock' (first at line 6) before ...
      |
    6 |     sock.sendall(head)
      |     ^^^^^^^^^^^^^^^^^^ first send
    7 |     sock.sendall(body)
      |     ^^^^^^^^^^^^^^^^^^ NGL001
    8 |     return sock.recv(4096)
      |            ^^^^^^^^^^^^^^^ the read that waits
      |
"""

from __future__ import annotations

import unicodedata

from ..fingerprint import Lines
from .text import printable

TAB = 4
GAP = 2  # unmarked lines shown between two marked ones; more are elided
RESET, BOLD, RED, YELLOW, BLUE, CYAN = "\033[0m", "\033[1m", "\033[31m", "\033[33m", "\033[34m", "\033[36m"
LEVEL_COLOR = {"error": RED, "warning": YELLOW, "note": CYAN}


def width(text: str) -> int:
    """Columns `text` takes on a terminal: tabs to stops of 4, wide characters
    two, combining marks none."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text.expandtabs(TAB))


class Paint:
    def __init__(self, color: bool):
        self.color = color

    def __call__(self, text: str, *codes: str) -> str:
        return f"{''.join(codes)}{text}{RESET}" if self.color and text else text


def marks(f) -> dict[str, list[tuple]]:
    """path -> [(site, label, primary)]: the finding's site and its related ones."""
    by_path: dict[str, list[tuple]] = {f.path: [(f.site, f.rule, True)]}
    for step in f.related:
        by_path.setdefault(step.path or f.path, []).append((step.site, step.label, False))
    return by_path


def snippet(path: str, marked: list[tuple], lines: Lines, paint: Paint, gutter: int, tone: str) -> list[str]:
    text = lines.of(path)
    if text is None:
        return []
    wanted = sorted({site.line for site, _, _ in marked if 1 <= site.line <= len(text)})
    shown: list[int] = []
    for n in wanted:
        if shown and n - shown[-1] - 1 <= GAP:
            shown.extend(range(shown[-1] + 1, n))
        elif shown:
            shown.append(0)  # elided
        shown.append(n)
    bar = paint("|", BLUE, BOLD)
    out = []
    for n in shown:
        if n == 0:
            out.append(paint("...", BLUE, BOLD))
            continue
        source = text[n - 1]
        out.append(f"{paint(str(n).rjust(gutter), BLUE, BOLD)} {bar} {source.expandtabs(TAB)}".rstrip())
        for site, label, primary in sorted((m for m in marked if m[0].line == n), key=lambda m: m[0].col):
            end = site.end_col if site.end_line == site.line else len(source) + 1
            start = width(source[: site.col - 1])
            carets = "^" * max(1, width(source[site.col - 1: end - 1]))
            color = tone if primary else CYAN
            out.append(f"{' ' * gutter} {bar} {' ' * start}{paint(carets + ' ' + label, color, BOLD)}")
    return out


def finding_text(f, lines: Lines, paint: Paint) -> str:
    tone = LEVEL_COLOR.get(f.level, YELLOW)
    header = (f"{paint(printable(f.path), BOLD)}:{f.site.line}:{f.site.col}: "
              f"{paint(f.rule, tone, BOLD)} {f.message}")
    by_path = marks(f)
    gutter = len(str(max(site.line for marked in by_path.values() for site, _, _ in marked)))
    bar = f"{' ' * gutter} {paint('|', BLUE, BOLD)}"
    body = []
    for path, marked in by_path.items():
        shown = snippet(path, marked, lines, paint, gutter, tone)
        if shown:
            if path != f.path:
                body.append(f"{' ' * gutter}{paint('::: ', BLUE, BOLD)}{printable(path)}")
            body += [bar, *shown, bar]
    if f.suppressed is not None:
        body.append(f"{' ' * gutter} {paint('=', BLUE, BOLD)} {paint('note', BOLD)}: suppressed: {f.suppressed}")
    return "\n".join([header, *body]) + "\n\n"


def render(result, color: bool = False, lines: Lines | None = None, **_) -> str:
    lines = lines or Lines()
    paint = Paint(color)
    return "".join(finding_text(f, lines, paint) for f in result.findings)
