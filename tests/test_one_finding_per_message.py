"""NGL001 reports one finding per message: the pieces a split's other pairings send on their
own are the finding's related locations (the fixture holds which lines are reported)."""

from __future__ import annotations

from pathlib import Path

from nagle_lint.config import Settings
from nagle_lint.runner import lint_file

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "c" / "split_one_finding_per_message.c"


def test_the_other_pieces_are_related_locations():
    _, findings, problem, _ = lint_file(str(FIXTURE), Settings().replace(min_confidence="low"))
    assert problem is None
    related = {f.site.line: sorted(r.site.line for r in f.related if r.label == "another piece sent on its own")
               for f in findings if f.rule == "NGL001"}
    assert related == {20: [21, 22], 40: [41, 42]}


def test_pieces_sent_by_one_line_are_said_to_be_so():
    """A call that sends in pieces by itself (a write per character) has both pieces on its
    line: the message says so, rather than "first at" the line it is on."""
    fixtures = FIXTURE.parent.parent
    _, findings, _, _ = lint_file(str(fixtures / "java" / "data_output_char_writes.java"), Settings())
    _, macro, _, _ = lint_file(str(fixtures / "c" / "function_like_macro.c"), Settings())
    same_line = [f.message for f in findings if f.rule == "NGL001"]
    assert same_line and all("(the first sent by the same line: that code sends in pieces)" in m for m in same_line)
    assert [f.message.split(" before ")[0] for f in macro if f.rule == "NGL001"] == [
        "second send on 'fd' (first at line 14)"]
