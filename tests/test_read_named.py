"""A split's message names the read that really follows it: where the reply
is read inside helpers (two calls down, or in a constructor), it is the call
in the function that split the message, by its line, and the finding's flow
ends there."""

from __future__ import annotations

import pytest

from nagle_lint.runner import lint_file
from test_fixtures import ROOT, settings_for

# fixture -> (the second send's line, the line of the call that waits for the reply)
CASES = {
    "python/reply_read_two_helpers_down.py": (23, 24),
    "python/constructor_reads_reply.py": (19, 20),
    "python/field_reader_helpers.py": (20, 21),
    "c/reply_read_two_helpers_down.c": (31, 32),
    "c/helper_per_piece.c": (41, 42),
    "java/reply_read_two_helpers_down.java": (26, 27),
    "java/helper_per_piece.java": (23, 24),
}


@pytest.mark.parametrize("fixture", CASES)
def test_the_message_names_the_read_that_follows(fixture: str):
    second, read = CASES[fixture]
    path = ROOT / "fixtures" / fixture
    findings = lint_file(str(path), settings_for(path.read_text(encoding="utf-8")))[1]
    [finding] = [f for f in findings if f.rule == "NGL001" and f.site.line == second]
    assert f"before the read at line {read} " in finding.message
    assert (finding.flow[-1].label, finding.flow[-1].site.line) == ("the read that waits", read)


def test_a_split_of_an_object_kept_in_another_file_s_field_names_the_read_its_caller_waits_on():
    """A client class keeping the connection object it makes in a field (another file's class):
    its method writing through the object and then reading through it is followed, so the
    object's split is said with the read that follows, not as a method that just returns."""
    from nagle_lint.runner import run

    folder = ROOT / "fixtures" / "python" / "connection_object_made_project"
    result = run([str(folder)], settings_for(""), jobs=1)
    [finding] = [f for f in result.findings if f.rule == "NGL001"]
    assert (finding.path.endswith("conn.py"), finding.site.line) == (True, 17)
    assert "before the read at line 20 " in finding.message
    assert (finding.flow[-1].label, finding.flow[-1].site.line) == ("the read that waits", 20)
