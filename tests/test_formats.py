"""The output formats: each one's shape, checked against its published schema
where there is one, the same treatment of suppressed findings in every
format, the terminal-dependent default, --output-format and --statistics.

Schemas under tests/data/ (data, kept as published):
- reviewdog-DiagnosticResult.jsonschema: reviewdog's Diagnostic Format,
  https://github.com/reviewdog/reviewdog/blob/master/proto/rdf/jsonschema/DiagnosticResult.jsonschema
- gitlab-codeclimate.json: the schema GitLab validates each code quality issue
  with, https://gitlab.com/gitlab-org/gitlab/-/blob/master/app/validators/json_schemas/codeclimate.json
  (GitLab's documentation adds: a JSON array; severity one of info, minor,
  major, critical, blocker; location.path relative to the repository;
  check_name; checked below as well)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import junitparser
import pytest

from nagle_lint.cli import main
from nagle_lint.report import FORMATS

DATA = Path(__file__).resolve().parent / "data"
ANSI = re.compile(r"\033\[[0-9;]*m")

# Line 7: a finding; line 13: one suppressed with a reason; 'é' before the
# second send on line 18 moves its UTF-8 byte columns past its character ones.
SOURCE = """\
import socket


def query(host, port, head, body):
    sock = socket.create_connection((host, port))
    sock.sendall(head)
    sock.sendall(body)
    return sock.recv(4096)


def lazy(sock, a, b):
    sock.sendall(a)
    sock.sendall(b)  # nagle-lint: ignore[NGL001] -- the peer reads lazily
    return sock.recv(1)


def accent(conn, a, b):
    conn.sendall(a); é = conn.sendall(b)
    return conn.recv(1)
"""
REASON = "the peer reads lazily"


def run(capsys, *argv, tty: bool = False, monkeypatch=None) -> tuple[int, str, str]:
    if tty:
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A git-less project folder as the working directory, with one source file."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    (tmp_path / "pyproject.toml").write_text("[tool.nagle-lint]\n", encoding="utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "client.py").write_text(SOURCE, encoding="utf-8")
    return tmp_path


def lint(capsys, fmt, *extra):
    return run(capsys, "--no-cache", "--format", fmt, *extra, "src/client.py")[1]


# --- suppressed findings: the same in every format --------------------------


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_suppressed_findings_are_left_out_unless_asked_for_in_every_format(capsys, project, fmt):
    default = lint(capsys, fmt)
    assert REASON not in default
    included = lint(capsys, fmt, "--include-suppressed")
    assert REASON in included, f"{fmt} does not say why the finding is suppressed"


def _lines_of(fmt: str, out: str) -> set[int]:
    """The lines of the findings a report holds, read the way its consumer reads it."""
    if fmt in ("concise", "text", "full"):
        return {int(m) for m in re.findall(r"^src/client\.py:(\d+):\d+: NGL", ANSI.sub("", out), re.M)}
    if fmt == "json":
        return {f["line"] for f in json.loads(out)["findings"]}
    if fmt == "json-lines":
        return {json.loads(line)["line"] for line in out.splitlines()}
    if fmt == "sarif":
        return {r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in json.loads(out)["runs"][0]["results"]}
    if fmt == "rdjson":
        return {d["location"]["range"]["start"]["line"] for d in json.loads(out)["diagnostics"]}
    if fmt == "gitlab":
        return {i["location"]["lines"]["begin"] for i in json.loads(out)}
    if fmt == "junit":
        return {int(c.attrib["line"]) for c in ElementTree.fromstring(out).iter("testcase")}
    if fmt == "github":
        return {int(m) for m in re.findall(r"^::\w+ file=src/client\.py,line=(\d+),", out, re.M)}
    raise AssertionError(fmt)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_holds_the_same_findings(capsys, project, fmt):
    assert _lines_of(fmt, lint(capsys, fmt)) == {7, 18}
    assert _lines_of(fmt, lint(capsys, fmt, "--include-suppressed")) == {7, 13, 18}


# --- concise, and text as its old name ---------------------------------------


def test_concise_is_one_line_a_finding_and_text_is_its_alias(capsys, project):
    out = lint(capsys, "concise")
    assert out.splitlines()[0].startswith("src/client.py:7:5: NGL001 second send on 'sock'")
    assert len(out.splitlines()) == 2
    assert lint(capsys, "text") == out
    marked = lint(capsys, "concise", "--include-suppressed").splitlines()
    assert marked[1].startswith("src/client.py:13:5: NGL001 ") and marked[1].endswith(f"(suppressed: {REASON})")


def test_output_format_is_an_alias_of_format(capsys, project):
    assert run(capsys, "--no-cache", "--output-format", "json-lines", "src/client.py")[1] == lint(capsys, "json-lines")
    assert run(capsys, "--no-cache", "--output-format=rdjson", "src/client.py")[1] == lint(capsys, "rdjson")


# --- full, and the default that depends on the terminal ----------------------


def test_full_shows_the_lines_with_carets_under_the_sends_and_the_read(capsys, project):
    out = lint(capsys, "full")
    first = out.split("\n\n")[0].splitlines()
    assert first[0].startswith("src/client.py:7:5: NGL001 second send")
    assert first[1:] == [
        "  |",
        "6 |     sock.sendall(head)",
        "  |     ^^^^^^^^^^^^^^^^^^ first send",
        "7 |     sock.sendall(body)",
        "  |     ^^^^^^^^^^^^^^^^^^ NGL001",
        "8 |     return sock.recv(4096)",
        "  |            ^^^^^^^^^^^^^^^ the read that waits",
        "  |",
    ]
    assert ANSI.search(out) is None


def test_full_elides_long_gaps_and_aligns_carets_after_wide_characters():
    from nagle_lint.findings import Finding, Step
    from nagle_lint.fingerprint import Lines
    from nagle_lint.report import Result
    from nagle_lint.report.full import render
    from nagle_lint.site import Site

    lines = Lines()
    lines._cache["x.py"] = ["s.send(a)", "", "", "", "", "界 = s.send(b)", "s.recv(1)"]
    f = Finding("NGL001", "x.py", Site(6, 5, 6, 14), "second send", "warning", "high",
                related=(Step(Site(1, 1, 1, 10), "first send"), Step(Site(7, 1, 7, 10), "the read")))
    out = render(Result([f], 1), lines=lines).rstrip("\n").splitlines()
    assert out[1:] == [
        "  |",
        "1 | s.send(a)",
        "  | ^^^^^^^^^ first send",
        "...",
        "6 | 界 = s.send(b)",
        "  |      ^^^^^^^^^ NGL001",
        "7 | s.recv(1)",
        "  | ^^^^^^^^^ the read",
        "  |",
    ]


def test_full_marks_a_suppressed_finding_with_its_reason(capsys, project):
    out = lint(capsys, "full", "--include-suppressed")
    block = next(b for b in out.split("\n\n") if b.startswith("src/client.py:13:"))
    assert block.splitlines()[-1] == f"   = note: suppressed: {REASON}"


def test_the_default_is_full_in_colour_on_a_terminal(capsys, project, monkeypatch):
    plain = lint(capsys, "full")
    out = run(capsys, "--no-cache", "src/client.py", tty=True, monkeypatch=monkeypatch)[1]
    assert ANSI.search(out)
    assert ANSI.sub("", out) == plain


def test_no_color_turns_the_colour_off(capsys, project, monkeypatch):
    plain = lint(capsys, "full")
    monkeypatch.setenv("NO_COLOR", "1")
    assert run(capsys, "--no-cache", "src/client.py", tty=True, monkeypatch=monkeypatch)[1] == plain


def test_the_default_is_concise_elsewhere(capsys, project, monkeypatch):
    concise = lint(capsys, "concise")
    assert run(capsys, "--no-cache", "src/client.py")[1] == concise
    # A report written to a file is not for the terminal either.
    run(capsys, "--no-cache", "--output-file", "report.txt", "src/client.py", tty=True, monkeypatch=monkeypatch)
    assert (project / "report.txt").read_text(encoding="utf-8") == concise


def test_the_cache_does_not_replay_colour_into_a_pipe(capsys, project, monkeypatch):
    concise, full = lint(capsys, "concise"), lint(capsys, "full")
    coloured = run(capsys, "src/client.py", tty=True, monkeypatch=monkeypatch)[1]
    assert ANSI.search(coloured)
    assert run(capsys, "src/client.py", tty=True, monkeypatch=monkeypatch)[1] == coloured  # replayed
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert run(capsys, "src/client.py")[1] == concise
    assert run(capsys, "--format", "full", "src/client.py")[1] == full


# --- json-lines ----------------------------------------------------------------


def test_json_lines_holds_json_findings_one_a_line(capsys, project):
    out = lint(capsys, "json-lines", "--include-suppressed")
    assert [json.loads(line) for line in out.splitlines()] == \
        json.loads(lint(capsys, "json", "--include-suppressed"))["findings"]


# --- rdjson ----------------------------------------------------------------------


def test_rdjson_is_valid_against_reviewdogs_schema(capsys, project):
    schema = json.loads((DATA / "reviewdog-DiagnosticResult.jsonschema").read_text(encoding="utf-8"))
    doc = json.loads(lint(capsys, "rdjson", "--include-suppressed"))
    jsonschema.Draft4Validator(schema).validate(doc)
    assert doc["source"]["name"] == "nagle-lint"
    first, suppressed, accent = doc["diagnostics"]
    assert first["location"] == {"path": "src/client.py",
                                 "range": {"start": {"line": 7, "column": 5}, "end": {"line": 7, "column": 23}}}
    assert first["severity"] == "WARNING" and first["code"]["value"] == "NGL001"
    assert [r["message"] for r in first["related_locations"]] == ["first send", "the read that waits"]
    assert suppressed["severity"] == "INFO" and suppressed["message"].endswith(f"(suppressed: {REASON})")
    # Columns are UTF-8 bytes: 'é' takes two.
    assert accent["location"]["range"]["start"] == {"line": 18, "column": 27}


def test_the_rdjson_schema_rejects_what_reviewdog_would(capsys, project):
    """The vendored schema resolves its references: a bad position is caught."""
    schema = json.loads((DATA / "reviewdog-DiagnosticResult.jsonschema").read_text(encoding="utf-8"))
    doc = json.loads(lint(capsys, "rdjson"))
    doc["diagnostics"][0]["location"]["range"]["start"]["line"] = "7"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(schema).validate(doc)


# --- gitlab ----------------------------------------------------------------------


def test_gitlab_is_a_valid_code_quality_report(capsys, project, monkeypatch):
    schema = json.loads((DATA / "gitlab-codeclimate.json").read_text(encoding="utf-8"))
    (project / ".git").mkdir()  # the repository's root: paths are relative to it
    monkeypatch.chdir(project / "src")
    out = run(capsys, "--no-cache", "--format", "gitlab", "--include-suppressed", "client.py")[1]
    issues = json.loads(out)
    assert isinstance(issues, list) and len(issues) == 3
    for issue in issues:
        jsonschema.Draft7Validator(schema).validate(issue)
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert issue["check_name"] == "NGL001"
        assert isinstance(issue["location"]["lines"]["begin"], int)
        assert issue["location"]["path"] == "src/client.py"
    assert len({i["fingerprint"] for i in issues}) == 3
    assert [i["location"]["lines"]["begin"] for i in issues] == [7, 13, 18]
    assert issues[1]["severity"] == "info" and issues[1]["description"].endswith(f"(suppressed: {REASON})")
    assert issues[0]["severity"] == "major"


def test_gitlab_fingerprints_are_sarifs(capsys, project):
    sarif = json.loads(lint(capsys, "sarif"))["runs"][0]["results"]
    gitlab = json.loads(lint(capsys, "gitlab"))
    assert [i["fingerprint"] for i in gitlab] == [r["fingerprints"]["nagle-lint/v1"] for r in sarif]


# --- junit -----------------------------------------------------------------------


def test_junit_is_read_by_a_junit_parser(capsys, project):
    (project / "report.xml").write_text(lint(capsys, "junit", "--include-suppressed"), encoding="utf-8")
    xml = junitparser.JUnitXml.fromfile(str(project / "report.xml"))
    (suite,) = list(xml)
    assert suite.name == "src/client.py"
    assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (3, 2, 0, 1)
    cases = list(suite)
    assert [c.classname for c in cases] == ["src/client.py"] * 3
    assert [type(r).__name__ for c in cases for r in c.result] == ["Failure", "Skipped", "Failure"]
    assert cases[0].result[0].message.startswith("second send on 'sock'")
    assert cases[1].result[0].message == f"suppressed: {REASON}"


def test_junit_without_findings_is_one_passing_case(capsys, project):
    (project / "src" / "client.py").write_text("x = 1\n", encoding="utf-8")
    (project / "report.xml").write_text(lint(capsys, "junit"), encoding="utf-8")
    xml = junitparser.JUnitXml.fromfile(str(project / "report.xml"))
    cases = [c for suite in xml for c in suite]
    assert len(cases) == 1 and cases[0].is_passed


# --- --statistics ------------------------------------------------------------------


def test_statistics_counts_findings_per_rule(capsys, project):
    (project / "src" / "loop.py").write_text(
        "import socket\n\n\ndef trickle(host, port, data):\n"
        "    sock = socket.create_connection((host, port))\n    for b in data:\n        sock.send(bytes([b]))\n",
        encoding="utf-8")
    code, out, _ = run(capsys, "--no-cache", "--statistics", "src")
    assert code == 1
    assert out == "2\tNGL001\tsplit-write-before-read\n1\tNGL003\tsmall-writes-in-loop\n"
    _, out, _ = run(capsys, "--no-cache", "--statistics", "--include-suppressed", "src")
    assert out.startswith("3\tNGL001\t")
    _, out, _ = run(capsys, "--no-cache", "--statistics", "--format", "json", "src")
    assert json.loads(out) == [{"code": "NGL001", "name": "split-write-before-read", "count": 2},
                               {"code": "NGL003", "name": "small-writes-in-loop", "count": 1}]


def test_statistics_with_another_format_is_an_error(capsys, project):
    code, out, err = run(capsys, "--no-cache", "--statistics", "--format", "sarif", "src")
    assert code == 2 and out == ""
    assert "--statistics" in err
