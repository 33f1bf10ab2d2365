"""The README's first command lints the whole fixtures folder in one run: it
must print exactly the annotated findings (cross-file ones included), and exit 1."""

from __future__ import annotations

import re
from pathlib import Path

from annotations import annotations
from nagle_lint.cli import main
from nagle_lint.rules import OPT_IN

ROOT = Path(__file__).resolve().parent.parent


def test_linting_the_fixtures_prints_exactly_their_annotations(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = main(["fixtures/"])
    out = capsys.readouterr().out
    got = set()
    for line in out.splitlines():
        m = re.match(r"(.+?):(\d+):\d+: (NGL\d{3}) ", line)
        assert m, line
        got.add((m.group(1), int(m.group(2)), m.group(3)))
    want, below, known = set(), set(), set()  # known: the false positives written down as todo-ok
    for path in sorted((ROOT / "fixtures").rglob("*")):
        if path.suffix in (".py", ".java", ".c", ".h"):
            source = path.read_text(encoding="utf-8", errors="replace")
            opt_in = "fixture-select:" in source
            if "fixture-confidence:" in source:  # judged below the default confidence, by test_fixtures
                below.add(str(path.relative_to(ROOT)))
                continue
            marks = annotations(path)
            known |= {(str(path.relative_to(ROOT)), line, rule) for line, rule in marks["todo-ok"]}
            for line, rule in marks["expect"]:
                if not (opt_in and rule in OPT_IN):  # the default run leaves out the rules off by default
                    want.add((str(path.relative_to(ROOT)), line, rule))
    got = {g for g in got if g[0] not in below}
    assert code == 1
    assert sorted(want - got) == [], "missing"
    assert sorted(got - want - known) == [], "unexpected"
