"""Bounded analysis: the dataflow's cost grows polynomially with the size of
every generated stress shape (counted in statements followed, not seconds),
and a file whose analysis runs past its time budget is reported as not fully
analysed, with what was found until then, while every other file's findings
are printed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from nagle_lint.checks import checks_within, flow
from nagle_lint.config import Settings
from nagle_lint.languages import frontend
from nagle_lint.project import Project
from nagle_lint.runner import lint_file, run

from stress import LANGUAGES, SHAPES, shape

RULES = {"NGL001", "NGL002", "NGL003", "NGL004"}


def _analysed(name: str, lang: str, size: int):
    """(statements followed, findings) analysing every file of a shape."""
    models = [frontend(lang).lower(path, text.encode()) for path, text in shape(name, lang, size).items()]
    project = Project(models)
    steps, found = 0, []
    for model in models:
        analysis = flow.analyse(model, project)
        assert not analysis.cut
        steps += analysis.steps
        found += checks_within(model, RULES, project)[0]
    return steps, found


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(SHAPES))
@settings(max_examples=4, deadline=None)
@given(size=st.integers(min_value=4, max_value=16))
def test_cost_grows_polynomially(name, lang, size):
    small, _ = _analysed(name, lang, size)
    big, found = _analysed(name, lang, 2 * size)
    # Twice the size costs at most four times the statements (quadratic at
    # worst); a cost exponential in nesting multiplied by thousands here.
    assert big <= 4 * small, (small, big)
    # The honest split write beside the shape is still found.
    assert any(f.rule == "NGL001" and f.site.line == _honest_line(name, lang, 2 * size) for f in found)


def _honest_line(name: str, lang: str, size: int) -> int:
    """The line of the second send of the honest function of the shape's file."""
    text = next(t for t in shape(name, lang, size).values() if "honest" in t)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "honest(" in line)
    sends = [i for i in range(start, len(lines)) if ("send" in lines[i] or "write(" in lines[i])]
    return sends[1] + 1


DEEP = 24


def _deep_tree(tmp_path):
    for lang in LANGUAGES:
        for path, text in shape("nested_loops", lang, DEEP).items():
            (tmp_path / path).write_text(text)
    honest = tmp_path / "honest.py"
    honest.write_text("import socket\n\ndef ask(host):\n    s = socket.create_connection((host, 80))\n"
                      "    s.sendall(b'HEAD')\n    s.sendall(b'BODY')\n    return s.recv(100)\n")
    return honest


def test_deep_nesting_is_analysed_within_the_budget(tmp_path):
    honest = _deep_tree(tmp_path)
    result = run([str(tmp_path)], Settings(), jobs=1)
    assert result.problems == []
    assert (str(honest), 6) in {(f.path, f.site.line) for f in result.findings}


def test_a_cut_analysis_is_reported_and_keeps_only_what_it_found(tmp_path, monkeypatch):
    honest = _deep_tree(tmp_path)
    full = run([str(tmp_path)], Settings(min_confidence="low"), jobs=1)
    # Every look at the clock finds the budget spent: each function is cut at
    # its first look (after flow.CLOCK_EVERY statements); the small ones end before.
    monkeypatch.setattr(flow, "_clock", lambda: float("inf"))
    cut = run([str(tmp_path)], Settings(min_confidence="low"), jobs=1)
    stress_files = sorted(str(p) for p in tmp_path.iterdir() if p != honest)
    assert sorted(p for p, _ in cut.problems) == stress_files
    assert all("not fully analysed" in message for _, message in cut.problems)
    assert (str(honest), 6) in {(f.path, f.site.line) for f in cut.findings}
    # What a cut analysis reports, the full one reports too.
    assert all(f in full.findings for f in cut.findings) and len(cut.findings) < len(full.findings)


def test_one_file_on_its_own_reports_the_cut(tmp_path, monkeypatch):
    (path, text), = shape("nested_loops", "c", DEEP).items()
    monkeypatch.setattr(flow, "_clock", lambda: float("inf"))
    _, _, problem, _ = lint_file(path, Settings(), text.encode())
    assert problem is not None and "not fully analysed" in problem
    monkeypatch.setattr(flow, "_clock", lambda: 0.0)
    assert lint_file(path, Settings(timeout=0), text.encode())[2] is None


NESTED_FINALLY = """\
def reply(s):
    try:
        s.sendall(b'1')
        return
    finally:
        while True:
            try:
                s.sendall(b'2')
                break
            finally:
                s.recv(10)
"""


def test_a_finally_not_followed_for_its_jumps_invents_nothing():
    # The inner finally block, followed for the outer one's return, is not
    # followed for its own break (past flow.MAX_JUMP_FINALLY): the read it
    # holds must not be taken as absent (two sends, then the function's end).
    _, findings, problem, _ = lint_file("reply.py", Settings(min_confidence="low"), NESTED_FINALLY.encode())
    assert problem is None
    assert findings == []


def test_an_analysis_keeps_no_model_alive(tmp_path):
    """Nothing outlives a run (a language server analyses for days): once
    the findings are taken, no node of the models analysed is left."""
    import gc

    from nagle_lint.model import Function, Loop

    for i in range(3):
        (tmp_path / f"c{i}.py").write_text(
            "import socket\n\ndef serve(s):\n    while True:\n        s.sendall(b'a')\n        s.sendall(b'b')\n"
            "        s.recv(1)\n        helper(s)\n\ndef helper(s):\n    while s:\n        data = s.recv(10)\n")

    def alive():
        gc.collect()
        return sum(isinstance(o, (Loop, Function)) for o in gc.get_objects())

    before = alive()
    found = run([str(tmp_path)], Settings(), jobs=1).findings
    assert found
    assert alive() == before
