"""`--format github`: workflow commands GitHub turns into annotations, escaped
as GitHub defines, most important first, everything taken from the linted
code fenced with ::stop-commands::, and a summary line at the end."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from nagle_lint.cli import main
from nagle_lint.config import Settings
from nagle_lint.findings import Finding
from nagle_lint.model import Site
from nagle_lint.report import Result
from nagle_lint.report import render as render_format
from nagle_lint.report.github import escape_data, escape_property, from_findings, from_sarif, render
from nagle_lint.report.sarif import sarif_log
from nagle_lint.runner import run
from test_sarif import validate_sarif

ROOT = Path(__file__).resolve().parent.parent

SPLIT = """import socket


def ask(host):
    sock = socket.create_connection((host, 7000))
    sock.sendall(b"HEAD")
    sock.sendall(b"BODY")
    return sock.recv(100)
"""


def unescape(text: str) -> str:
    for code, ch in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(code, ch)
    return text


def runner_view(output: str):
    """What the Actions runner executes: (command, properties, message) for
    each command line outside a ::stop-commands:: fence."""
    commands, fence, fenced = [], None, []
    for line in output.split("\n"):
        if fence is not None:
            if line == f"::{fence}::":
                fence = None
            else:
                fenced.append(line)
            continue
        m = re.match(r"^::([a-z-]+)(?: ([^:]*))?::(.*)$", line)
        if not m:
            continue
        if m.group(1) == "stop-commands":
            fence = m.group(3)
            continue
        props = {}
        for part in (m.group(2) or "").split(","):
            if part:
                key, _, value = part.partition("=")
                props[key] = unescape(value)
        commands.append((m.group(1), props, unescape(m.group(3))))
    assert fence is None, "a fence was never closed"
    return commands, fenced


def lint_github(cwd: Path, *args) -> tuple[int, str]:
    out = cwd / "annotations.txt"
    old = os.getcwd()
    os.chdir(cwd)
    try:
        code = main(["--format", "github", "--output-file", str(out), "--quiet", *args])
    finally:
        os.chdir(old)
    return code, out.read_text(encoding="utf-8")


def test_escaping_follows_github():
    assert escape_data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b"
    assert escape_property("a:b,c%d\ne") == "a%3Ab%2Cc%25d%0Ae"
    assert unescape(escape_property("x,%3A:\r\n")) == "x,%3A:\r\n"


def test_one_annotation_per_finding_most_important_first():
    result = run([str(ROOT / "fixtures")], Settings())
    # As the command renders it: suppressed findings (the fixtures have some) left out.
    output = render_format("github", result, root=ROOT, token="fence-token")
    commands, fenced = runner_view(output)
    shown = [f for f in result.findings if f.suppressed is None]
    assert len(commands) == len(shown) > 50
    levels = [c[0] for c in commands]
    assert set(levels) <= {"error", "warning", "notice"} and "notice" in levels
    order = {"error": 0, "warning": 1, "notice": 2}
    assert levels == sorted(levels, key=order.get)  # errors, then warnings, then notices
    # Two findings may share a line (the two arms of a ternary): the column tells them apart.
    by_place = {(f.path.removeprefix(str(ROOT) + "/"), f.site.line, f.site.col, f.rule): f for f in shown}
    for level, props, message in commands:
        rule_id, name = props["title"].split(" ")
        f = by_place[(props["file"], int(props["line"]), int(props["col"]), rule_id)]
        assert level == {"warning": "warning", "note": "notice"}[f.level]
        assert message == f.message
        assert (int(props["col"]), int(props["endLine"]), int(props["endColumn"])) == \
            (f.site.col, f.site.end_line, f.site.end_col)
        assert (ROOT / props["file"]).is_file()
    # Within a level, surer findings come first.
    conf = {"high": 0, "medium": 1, "low": 2}
    warnings = [by_place[(p["file"], int(p["line"]), int(p["col"]), p["title"].split(" ")[0])].confidence
                for lvl, p, _ in commands if lvl == "warning"]
    assert warnings == sorted(warnings, key=conf.get)
    # Every finding is also listed in plain text, inside the fence.
    assert len([line for line in fenced if re.match(r"^fixtures/.*:\d+:\d+: NGL\d{3} ", line)]) == len(shown)
    last = output.rstrip("\n").split("\n")[-1]
    assert last.startswith(f"nagle-lint: {len(shown)} findings (")
    assert "10 annotations" in last


def test_fence_token_is_random():
    result = Result([Finding("NGL001", "a.py", Site(1, 1, 1, 2), "m", "warning", "high")], files=1)
    tokens = {re.search(r"^::stop-commands::(.+)$", render(result), re.M).group(1) for _ in range(3)}
    assert len(tokens) == 3 and all(len(t) >= 32 for t in tokens)


def test_hostile_file_names_cannot_issue_commands(tmp_path):
    evil = "evil,name:x\n::error file=pwned.py::owned\n.py"
    (tmp_path / evil).write_text(SPLIT, encoding="utf-8")
    (tmp_path / "%0A::error::x.py").write_text(SPLIT, encoding="utf-8")
    (tmp_path / "ok.py").write_text("x = 1\n", encoding="utf-8")
    code, output = lint_github(tmp_path, ".")
    assert code == 1
    commands, fenced = runner_view(output)
    assert sorted(c[1]["file"] for c in commands) == sorted([evil, "%0A::error::x.py"])
    assert {c[0] for c in commands} == {"warning"}
    assert not any("owned" in c[2] for c in commands)
    assert any("pwned" in line for line in fenced)  # echoed only inside the fence


def test_multi_line_findings_have_no_columns():
    result = Result([Finding("NGL003", "a.py", Site(3, 5, 4, 2), "m", "note", "medium")], files=1)
    (cmd,) = runner_view(render(result, root=Path.cwd()))[0]
    assert cmd[0] == "notice"
    assert cmd[1] == {"file": "a.py", "line": "3", "endLine": "4", "title": "NGL003 small-writes-in-loop"}


def test_problems_are_fenced_and_clean_runs_say_so(tmp_path):
    (tmp_path / "fine.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "gone::error::x.py").symlink_to("nowhere.py")
    code, output = lint_github(tmp_path, "fine.py", "gone::error::x.py")
    assert code == 0
    commands, fenced = runner_view(output)
    assert commands == []
    assert fenced == ["nagle-lint: warning: gone::error::x.py: broken symbolic link; skipped"]
    assert output.rstrip("\n").split("\n")[-1] == "nagle-lint: no findings in 1 file."


def test_annotations_from_a_sarif_log_match(tmp_path):
    result = run([str(ROOT / "fixtures")], Settings())
    log = sarif_log(result, root=ROOT)
    validate_sarif(log)
    direct = from_findings(result.shown, ROOT)  # the log leaves suppressed findings out (the fixtures have some)
    derived, problems = from_sarif(log)
    assert problems == []
    assert len(derived) == len(direct)
    for a, b in zip(direct, derived):
        assert (a.level, a.path, a.line, a.col, a.end_line, a.end_col, a.title, a.confidence) == \
            (b.level, b.path, b.line, b.col, b.end_line, b.end_col, b.title, b.confidence)
        assert b.message.startswith(a.message)  # plus a closing full stop, links turned back into text
        assert "](" not in b.message and "{{" not in b.message
    sarif = tmp_path / "log.sarif"
    sarif.write_text(json.dumps(log), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "nagle_lint.report.github", str(sarif)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    commands, _ = runner_view(proc.stdout)
    assert len(commands) == len(direct)
    assert proc.stdout.rstrip("\n").split("\n")[-1].startswith(f"nagle-lint: {len(direct)} findings (")


def test_the_sarif_reader_takes_its_options_as_the_command_does(tmp_path, capsys):
    from nagle_lint.report.github import main as from_log

    sarif = tmp_path / "log.sarif"
    sarif.write_text(json.dumps(sarif_log(Result([], files=1), root=tmp_path)), encoding="utf-8")
    try:
        from_log(["--help"])
    except SystemExit as e:
        assert e.code == 0
    out = capsys.readouterr().out
    assert "--no-annotations" in out and "FILE.sarif" in out
    assert from_log([str(sarif), "--no-annotations"]) == 0
    assert capsys.readouterr().out == "nagle-lint: no findings.\n"
    assert from_log(["--no-annotation", str(sarif)]) == 2  # no abbreviations, as the command's
    assert "unrecognized arguments: --no-annotation" in capsys.readouterr().err


def test_cli_exit_codes_with_github_format(tmp_path):
    (tmp_path / "split.py").write_text(SPLIT, encoding="utf-8")
    code, output = lint_github(tmp_path, "split.py")
    assert code == 1
    ((level, props, message),) = runner_view(output)[0]
    assert (level, props["file"], props["line"], props["title"]) == \
        ("warning", "split.py", "7", "NGL001 split-write-before-read")
    assert "first at line 6" in message
