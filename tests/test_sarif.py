"""`--format sarif`: SARIF 2.1.0 held to the OASIS schema (every log these
tests produce) and to the SARIF SDK's own validator with GitHub's ingestion
rules (Sarif.Multitool, `--rule-kind "Sarif;Gh;Ghas"`: 0 errors, 0 warnings)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from nagle_lint import __version__
from nagle_lint.cli import main
from nagle_lint.config import Settings
from nagle_lint.findings import Finding, Step
from nagle_lint.model import Site
from nagle_lint.report.sarif import linked_message, sarif_log
from nagle_lint.rules import all_rules
from nagle_lint.runner import run

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATHS = (ROOT.parent / "shared" / "schemas" / "sarif-schema-2.1.0.json",
                ROOT / "tests" / "data" / "sarif-schema-2.1.0.json")
MULTITOOL_VERSION = "5.7.0"

SPLIT = """import socket


def ask(host):
    sock = socket.create_connection((host, 7000))
    sock.sendall(b"HEAD")
    sock.sendall(b"BODY")
    return sock.recv(100)
"""


def validate_sarif(log: dict) -> None:
    """Raise unless `log` is valid against the OASIS SARIF 2.1.0 schema."""
    path = next(p for p in SCHEMA_PATHS if p.is_file())
    schema = json.loads(path.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    errors = sorted(cls(schema).iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


def lint_sarif(tmp_path, *args, cwd=None) -> dict:
    """Run the command line with --format sarif and return the parsed log."""
    out = tmp_path / f"out{len(list(tmp_path.glob('out*.sarif')))}.sarif"
    old = os.getcwd()
    os.chdir(cwd or tmp_path)
    try:
        code = main(["--format", "sarif", "--output-file", str(out), "--quiet", *args])
    finally:
        os.chdir(old)
    assert code in (0, 1), code
    log = json.loads(out.read_text(encoding="utf-8"))
    validate_sarif(log)
    return log


@pytest.fixture(scope="module")
def fixtures_log():
    result = run([str(ROOT / "fixtures")], Settings())
    log = sarif_log(result, root=ROOT)
    validate_sarif(log)
    return result, log


def test_schema_validation_can_fail():
    with pytest.raises(AssertionError):
        validate_sarif({"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]})


def test_log_header_and_driver(fixtures_log):
    _, log = fixtures_log
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    run_ = log["runs"][0]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "nagle-lint"
    assert driver["semanticVersion"] == __version__
    assert driver["informationUri"].startswith("https://")
    rules = all_rules()
    assert [r["id"] for r in driver["rules"]] == list(rules)
    for desc in driver["rules"]:
        rule = rules[desc["id"]]
        assert desc["name"] == rule.name
        assert desc["shortDescription"]["text"].rstrip(".") == rule.summary
        assert 0 < len(desc["fullDescription"]["text"]) <= 1024
        assert 0 < len(desc["shortDescription"]["text"]) <= 1024
        assert desc["help"]["markdown"] == rule.body and desc["help"]["text"]
        assert desc["helpUri"] == rule.url
        assert desc["defaultConfiguration"]["level"] == rule.level
        props = desc["properties"]
        assert props["tags"] == list(rule.tags)
        assert props["precision"] == rule.precision
        assert props["problem.severity"] in ("error", "warning", "recommendation")
        assert "security-severity" not in props
    assert run_["columnKind"] == "utf16CodeUnits"
    root_uri = run_["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert root_uri == ROOT.as_uri() + "/"


def test_results_point_at_the_findings(fixtures_log):
    result, log = fixtures_log
    run_ = log["runs"][0]
    results = run_["results"]
    shown = [f for f in result.findings if f.suppressed is None]
    assert len(results) == len(shown) > 50
    rules = run_["tool"]["driver"]["rules"]
    for res, f in zip(results, shown):
        assert res["ruleId"] == f.rule == rules[res["ruleIndex"]]["id"]
        assert res["level"] == f.level
        loc = res["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert (ROOT / loc["artifactLocation"]["uri"]).is_file()
        assert loc["region"]["startLine"] == f.site.line
        assert set(loc["region"]) == {"startLine", "startColumn", "endLine", "endColumn"}
        assert res["properties"]["confidence"] == f.confidence
        assert re.fullmatch(r"[0-9a-f]{16}:[1-9][0-9]*", res["partialFingerprints"]["primaryLocationLineHash"])
        assert re.fullmatch(r"[0-9a-f]{32}", res["fingerprints"]["nagle-lint/v1"])
        # A fix in words is advice; a `fixes` entry always carries the edit's replacements.
        assert all(change["replacements"] for fix in res.get("fixes", ()) for change in fix["artifactChanges"])
        if f.fix:
            assert res["properties"]["fix"] == f.fix


def test_every_related_location_is_linked_from_the_message(fixtures_log):
    _, log = fixtures_log
    with_related = 0
    for res in log["runs"][0]["results"]:
        ids = [loc["id"] for loc in res.get("relatedLocations", [])]
        links = [int(n) for n in re.findall(r"\]\((\d+)\)", res["message"]["text"])]
        assert sorted(links) == sorted(ids), res["message"]["text"]
        with_related += bool(ids)
        for loc in res.get("relatedLocations", []):
            assert loc["message"]["text"]
            assert loc["physicalLocation"]["region"]["startLine"] > 0
    assert with_related > 30


def test_code_flows_walk_the_finding(fixtures_log):
    result, log = fixtures_log
    shown = [f for f in result.findings if f.suppressed is None]
    flows = 0
    for res, f in zip(log["runs"][0]["results"], shown):
        if not f.flow:
            assert "codeFlows" not in res
            continue
        flows += 1
        (flow,) = res["codeFlows"]
        (thread,) = flow["threadFlows"]
        lines = [step["location"]["physicalLocation"]["region"]["startLine"] for step in thread["locations"]]
        assert lines == [s.site.line for s in f.flow]
        assert [step["location"]["message"]["text"] for step in thread["locations"]] == [s.label for s in f.flow]
    assert flows > 30


def test_ngl001_message_links_first_send_and_read():
    first, second, read = Site(28, 5, 28, 20), Site(29, 5, 29, 20), Site(34, 9, 34, 30)
    f = Finding("NGL001", "x.py", second,
                "second send on 'out' (first at line 28) before the reply is read at line 34: do {this}",
                "warning", "high", related=(Step(first, "first send"), Step(read, "the read")))
    text = linked_message(f.message, f.related)
    assert text == ("second send on 'out' (first at [line 28](1)) before the reply is read at [line 34](2):"
                    " do {{this}}.")


def test_message_links_locations_the_text_does_not_name():
    steps = (Step(Site(3, 1, 3, 2), "first [send]"), Step(Site(3, 9, 3, 12), "again"), Step(Site(5, 1, 5, 2), "read"))
    text = linked_message("piece sent at line 3 is held", steps)
    assert text == ("piece sent at [line 3](1) is held. Related: [again, line 3](2), [read, line 5](3).")
    assert linked_message("nothing related", ()) == "nothing related."
    label = linked_message("x", (Step(Site(1, 1, 1, 2), "a\\b [c]"),))
    assert label == "x. Related: [a\\\\b \\[c\\], line 1](1)."


def test_columns_are_utf16_code_units_with_tabs_and_non_ascii(tmp_path):
    source = ("import socket\n\n\ndef ask(host):\n"
              "\tsock = socket.create_connection((host, 7000))\n"
              "\tsock.sendall(b'HEAD')\n"
              "\tmark = '\u00e9\U0001F600'; sock.sendall(b'BODY')\n"
              "\treturn sock.recv(100)\n")
    (tmp_path / "cols.py").write_text(source, encoding="utf-8")
    log = lint_sarif(tmp_path, "cols.py")
    (res,) = log["runs"][0]["results"]
    region = res["locations"][0]["physicalLocation"]["region"]
    line = source.splitlines()[6]
    start = line.index("sock.sendall")
    end = line.index(")", start) + 1
    utf16 = lambda s: len(s.encode("utf-16-le")) // 2  # noqa: E731
    assert region["startLine"] == region["endLine"] == 7
    assert region["startColumn"] == utf16(line[:start]) + 1 == start + 2  # the emoji is two code units
    assert region["endColumn"] == utf16(line[:end]) + 1
    # The tab on the first send's line is one column.
    first = res["relatedLocations"][0]["physicalLocation"]["region"]
    assert (first["startLine"], first["startColumn"]) == (6, 2)


def test_suppressed_findings_are_left_out_unless_asked_for(tmp_path):
    src = SPLIT.replace('    sock.sendall(b"BODY")',
                        '    # nagle-lint: ignore[NGL001] -- the peer answers at once\n    sock.sendall(b"BODY")')
    (tmp_path / "quiet.py").write_text(src, encoding="utf-8")
    (tmp_path / "loud.py").write_text(SPLIT, encoding="utf-8")
    default = lint_sarif(tmp_path, ".")
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in default["runs"][0]["results"]] \
        == ["loud.py"]
    assert all("suppressions" not in r for r in default["runs"][0]["results"])
    full = lint_sarif(tmp_path, "--include-suppressed", ".")
    results = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r for r in full["runs"][0]["results"]}
    assert results["quiet.py"]["suppressions"] == [{"kind": "inSource", "justification": "the peer answers at once"}]
    assert "suppressions" not in results["loud.py"]


def test_invocation_reports_files_not_read_or_parsed(tmp_path):
    (tmp_path / "broken.py").write_text(SPLIT + "\ndef (:\n", encoding="utf-8")
    (tmp_path / "missing.py").symlink_to("nowhere.py")
    log = lint_sarif(tmp_path, "broken.py", "missing.py")
    (inv,) = log["runs"][0]["invocations"]
    assert inv["executionSuccessful"] is True
    notes = {n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: n for n in inv["toolExecutionNotifications"]}
    assert set(notes) == {"broken.py", "missing.py"}
    assert notes["missing.py"]["level"] == "warning" and "broken symbolic link" in notes["missing.py"]["message"]["text"]
    assert notes["broken.py"]["level"] == "note" and "syntax error" in notes["broken.py"]["message"]["text"]
    assert len(log["runs"][0]["results"]) == 1  # what parsed was analysed

    out = tmp_path / "none.sarif"
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(["--format", "sarif", "-o", str(out), "-q", "missing.py"]) == 2
    finally:
        os.chdir(old)
    log = json.loads(out.read_text(encoding="utf-8"))
    validate_sarif(log)
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_uris_are_relative_to_the_repository_root(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "net dir").mkdir(parents=True)
    (repo / "src" / "net dir" / "ask.py").write_text(SPLIT, encoding="utf-8")
    log = lint_sarif(tmp_path, ".", cwd=repo / "src")
    run_ = log["runs"][0]
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repo.as_uri() + "/"
    (res,) = run_["results"]
    assert res["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "src/net%20dir/ask.py", "uriBaseId": "%SRCROOT%"}


def test_same_input_same_bytes(tmp_path):
    outs = []
    for n in range(2):
        out = tmp_path / f"run{n}.sarif"
        old = os.getcwd()
        os.chdir(ROOT)
        try:
            main(["--format", "sarif", "-o", str(out), "-q", "-j", "1" if n else "2", "fixtures"])
        finally:
            os.chdir(old)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert len(json.loads(outs[0])["runs"][0]["results"]) > 50


def test_line_hash_stable_when_lines_are_inserted_above(tmp_path):
    (tmp_path / "a.py").write_text(SPLIT, encoding="utf-8")
    before = lint_sarif(tmp_path, "a.py")["runs"][0]["results"][0]
    (tmp_path / "a.py").write_text("# a new comment\n\nimport os\n" + SPLIT, encoding="utf-8")
    after = lint_sarif(tmp_path, "a.py")["runs"][0]["results"][0]
    assert after["locations"][0]["physicalLocation"]["region"]["startLine"] == \
        before["locations"][0]["physicalLocation"]["region"]["startLine"] + 3
    assert after["partialFingerprints"] == before["partialFingerprints"]
    assert after["fingerprints"] == before["fingerprints"]
    # The finding's own line changes: so does its fingerprint.
    (tmp_path / "a.py").write_text(SPLIT.replace('sock.sendall(b"BODY")', 'sock.sendall(b"TAIL")'), encoding="utf-8")
    changed = lint_sarif(tmp_path, "a.py")["runs"][0]["results"][0]
    assert changed["partialFingerprints"] != before["partialFingerprints"]
    assert changed["fingerprints"] != before["fingerprints"]


def test_identical_lines_get_occurrence_counters(tmp_path):
    twice = SPLIT + "\n\n" + SPLIT.replace("def ask", "def ask_again").replace("import socket\n", "")
    (tmp_path / "b.py").write_text(twice, encoding="utf-8")
    results = lint_sarif(tmp_path, "b.py")["runs"][0]["results"]
    hashes = [r["partialFingerprints"]["primaryLocationLineHash"] for r in results]
    assert len(hashes) == 2 and hashes[0].split(":")[0] == hashes[1].split(":")[0]
    assert [h.split(":")[1] for h in hashes] == ["1", "2"]
    assert results[0]["fingerprints"] != results[1]["fingerprints"]


# --- the SARIF SDK's validator -------------------------------------------------


def _multitool_binary(folder: Path) -> Path | None:
    plat = {"linux": "linux", "darwin": "darwin", "win32": "win32"}.get(sys.platform)
    exe = "Sarif.Multitool.exe" if plat == "win32" else "Sarif.Multitool"
    candidate = folder / "node_modules" / "@microsoft" / f"sarif-multitool-{plat}" / exe
    return candidate if candidate.is_file() else None


def find_multitool() -> Path | None:
    """$SARIF_MULTITOOL (the binary, or the folder npm installed it into), or
    the folder .ci/run installs into.  The tests download nothing themselves."""
    given = os.environ.get("SARIF_MULTITOOL")
    if given:
        path = Path(given)
        return path if path.is_file() else _multitool_binary(path)
    for folder in (ROOT / ".ci-venv" / "sarif-multitool", ROOT):
        found = _multitool_binary(folder)
        if found:
            return found
    return None


def missing_multitool():
    """Skip the test, or fail it under CI, where the validator must run."""
    reason = (f"the SARIF Multitool is not installed: .ci/run installs it, or `npm install --prefix DIR "
              f"@microsoft/sarif-multitool@{MULTITOOL_VERSION}` and set SARIF_MULTITOOL=DIR")
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def multitool():
    path = find_multitool()
    if path is None:
        missing_multitool()
    if not os.access(path, os.X_OK):
        path.chmod(path.stat().st_mode | 0o100)
    return path


def test_the_multitool_is_never_downloaded_by_the_tests(tmp_path, monkeypatch):
    # The tests once ran `npm install` into the home folder's cache when npm was there.
    import test_sarif

    monkeypatch.setattr(test_sarif, "ROOT", tmp_path)
    monkeypatch.delenv("SARIF_MULTITOOL", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail(f"ran {a}"))
    assert find_multitool() is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("ci", "outcome"), [("true", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_without_the_multitool_a_local_run_skips_and_ci_fails(monkeypatch, ci, outcome):
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="SARIF Multitool is not installed: .ci/run installs it"):
        missing_multitool()


def multitool_validate(tool: Path, sarif: Path, tmp_path: Path) -> tuple[list, list, str]:
    """(errors, warnings, console output) of `Sarif.Multitool validate --rule-kind "Sarif;Gh;Ghas"`."""
    out = tmp_path / (sarif.stem + ".validation.sarif")
    proc = subprocess.run([str(tool), "validate", "--rule-kind", "Sarif;Gh;Ghas", "-o", str(out), str(sarif)],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "DOTNET_CLI_TELEMETRY_OPTOUT": "1"})
    console = proc.stdout + proc.stderr
    assert proc.returncode == 0 and out.is_file(), console
    report = json.loads(out.read_text(encoding="utf-8-sig"))
    errors, warnings = [], []
    for run_ in report["runs"]:
        for res in run_.get("results", []):
            level = res.get("level", "warning")
            line = f"{res.get('ruleId')}: {res.get('message', {}).get('text') or res.get('message', {}).get('arguments')}"
            (errors if level == "error" else warnings if level == "warning" else []).append(line)
        for inv in run_.get("invocations", []):
            for note in inv.get("toolExecutionNotifications", []):
                if note.get("level", "warning") == "error":
                    errors.append(note["message"]["text"])
    # The console agrees: "FILE(line,col): error GH1018: ...".
    assert len(re.findall(r": error [A-Z]+\d+", console)) == len(errors), console
    return errors, warnings, console


def test_multitool_finds_problems_in_a_bad_log(multitool, tmp_path):
    bad = tmp_path / "bad.sarif"
    bad.write_text(json.dumps({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": []}]}))
    errors, warnings, console = multitool_validate(multitool, bad, tmp_path)
    assert errors and warnings, console


def test_multitool_accepts_the_fixtures_log(multitool, tmp_path):
    sarif = tmp_path / "fixtures.sarif"
    proc = subprocess.run([sys.executable, "-m", "nagle_lint", "--format", "sarif", "-o", str(sarif), "fixtures"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    log = json.loads(sarif.read_text(encoding="utf-8"))
    validate_sarif(log)
    assert len(log["runs"][0]["results"]) > 50
    errors, warnings, console = multitool_validate(multitool, sarif, tmp_path)
    assert (errors, warnings) == ([], []), console


def test_multitool_accepts_suppressions_and_notifications(multitool, tmp_path):
    src = SPLIT.replace('    sock.sendall(b"BODY")',
                        '    # nagle-lint: ignore[NGL001] -- measured: the peer answers at once\n    sock.sendall(b"BODY")')
    (tmp_path / "quiet.py").write_text(src, encoding="utf-8")
    (tmp_path / "broken.py").write_text(SPLIT + "\ndef (:\n", encoding="utf-8")
    (tmp_path / "missing.py").symlink_to("nowhere.py")
    log = lint_sarif(tmp_path, "--include-suppressed", "quiet.py", "broken.py", "missing.py")
    assert any("suppressions" in r for r in log["runs"][0]["results"])
    sarif = tmp_path / "mixed.sarif"
    sarif.write_text(json.dumps(log), encoding="utf-8")
    errors, warnings, console = multitool_validate(multitool, sarif, tmp_path)
    assert (errors, warnings) == ([], []), console


def test_a_rule_without_a_document_still_gives_a_valid_log():
    from nagle_lint.report import Result

    f = Finding("NGL999", "x.py", Site(1, 1, 1, 5), "odd", "warning", "low")
    log = sarif_log(Result([f], files=1), root=ROOT)
    validate_sarif(log)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    (res,) = log["runs"][0]["results"]
    assert rules[res["ruleIndex"]]["id"] == "NGL999"


def test_related_locations_in_other_files(tmp_path, monkeypatch):
    from nagle_lint.report import Result

    monkeypatch.chdir(tmp_path)

    f = Finding("NGL002", "net.py", Site(9, 5, 9, 40),
                "TCP_NODELAY hides split sends (store.py:9 sends the second piece of a message started at "
                "store.py:8, then line 12 reads)", "warning", "high",
                related=(Step(Site(8, 5, 8, 20), "first send", "store.py"), Step(Site(9, 5, 9, 20), "second send", "store.py"),
                         Step(Site(12, 5, 12, 9), "the read", "store.py"), Step(Site(2, 1, 2, 3), "set here")),
                flow=(Step(Site(9, 5, 9, 40), "on"), Step(Site(8, 5, 8, 20), "first send", "store.py")))
    log = sarif_log(Result([f], files=2), root=tmp_path)
    validate_sarif(log)
    (res,) = log["runs"][0]["results"]
    # "line 12" would be net.py's line 12: the read in store.py is linked at the end instead.
    assert res["message"]["text"] == (
        "TCP_NODELAY hides split sends ([store.py:9](2) sends the second piece of a message started at "
        "[store.py:8](1), then line 12 reads). Related: [the read, store.py:12](3), [set here, line 2](4).")
    uris = [(loc["id"], loc["physicalLocation"]["artifactLocation"]["uri"], loc["physicalLocation"]["region"]["startLine"])
            for loc in res["relatedLocations"]]
    assert uris == [(1, "store.py", 8), (2, "store.py", 9), (3, "store.py", 12), (4, "net.py", 2)]
    flow = [step["location"]["physicalLocation"]["artifactLocation"]["uri"]
            for step in res["codeFlows"][0]["threadFlows"][0]["locations"]]
    assert flow == ["net.py", "store.py"]


def test_fixes_carry_their_replacements(tmp_path):
    """A fix nagle-lint can make is a `fixes` entry; applying its replacements
    (lines and UTF-16 columns) gives what --fix writes."""
    from nagle_lint.fixes import decode

    # The emoji counts two UTF-16 units: the replaced argument ends one column further than in characters.
    src = "# d\u00e9j\u00e0\n" + SPLIT.replace('sock.sendall(b"BODY")', 'sock.sendall("\U0001f600 BODY".encode())')
    path = tmp_path / "client.py"
    path.write_bytes(src.replace("\r\n", "\n").replace("\n", "\r\n").encode())
    log = lint_sarif(tmp_path, "client.py")
    (result,) = log["runs"][0]["results"]
    (fix,) = result["fixes"]
    assert fix["description"]["text"].endswith("(safe).")
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "client.py"
    lines = path.read_bytes().decode().split("\r\n")
    for r in sorted(change["replacements"], key=lambda r: (r["deletedRegion"]["startLine"],
                                                           r["deletedRegion"]["startColumn"]), reverse=True):
        region = r["deletedRegion"]
        text = "\r\n".join(lines)
        offsets = []
        for line, column in ((region["startLine"], region["startColumn"]), (region["endLine"], region["endColumn"])):
            before = "\r\n".join(lines[:line - 1]) + ("\r\n" if line > 1 else "")
            units = lines[line - 1].encode("utf-16-le")[:2 * (column - 1)].decode("utf-16-le")
            offsets.append(len(before) + len(units))
        lines = (text[:offsets[0]] + r["insertedContent"]["text"] + text[offsets[1]:]).split("\r\n")
    assert main(["--no-cache", "--quiet", "--fix", str(path)]) == 0
    assert "\r\n".join(lines).encode() == path.read_bytes()
    assert 'sock.sendall(b"HEAD" + "\U0001f600 BODY".encode())\r\n' in path.read_bytes().decode()


def test_multitool_accepts_fixes(multitool, tmp_path):
    for source in ("python/split_write_client.py", "c/split_write_client.c", "java/split_write_client.java",
                   "c/msg_more_last_piece.c"):
        shutil.copy(ROOT / "fixtures" / source, tmp_path / source.replace("/", "_"))
    log = lint_sarif(tmp_path, ".")
    assert sum("fixes" in r for r in log["runs"][0]["results"]) == 4
    sarif = tmp_path / "fixes.sarif"
    sarif.write_text(json.dumps(log), encoding="utf-8")
    errors, warnings, console = multitool_validate(multitool, sarif, tmp_path)
    assert (errors, warnings) == ([], []), console
