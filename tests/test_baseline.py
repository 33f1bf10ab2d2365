"""Adopting on an existing code base: --write-baseline/--baseline (keyed on
fingerprints, not line numbers) and --diff-base (only lines added or changed
since a git revision), each checked on real files and a real git repository."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from nagle_lint.cli import main
from nagle_lint.gitdiff import parse_diff, unquote_path
from test_sarif import validate_sarif

SPLIT = """import socket


def {name}(host):
    sock = socket.create_connection((host, 7000))
    sock.sendall(b"HEAD")
    sock.sendall(b"{body}")
    return sock.recv(100)
"""


def split(name="ask", body="BODY", imports=True) -> str:
    text = SPLIT.format(name=name, body=body)
    return text if imports else text.replace("import socket\n", "")


def lint(cwd: Path, *args, fmt="json") -> tuple[int, list[tuple[str, int]], str]:
    """(exit code, [(path, line)] of the reported findings, stderr-free output)."""
    out = cwd / ".report"
    old = os.getcwd()
    os.chdir(cwd)
    try:
        code = main(["--format", fmt, "--output-file", str(out), "--quiet", *args])
    finally:
        os.chdir(old)
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    out.unlink(missing_ok=True)
    found = []
    if fmt == "json" and text:
        found = [(os.path.normpath(f["path"]), f["line"]) for f in json.loads(text)["findings"] if f["suppressed"] is None]
    return code, found, text


# --- baselines -----------------------------------------------------------------


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()  # the repository root, for paths in fingerprints
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text(split("first") + "\n\n" + split("second", "TAIL", False), encoding="utf-8")
    (tmp_path / "src" / "b.py").write_text(split("third"), encoding="utf-8")
    return tmp_path


def test_write_baseline_then_nothing_is_new(project):
    code, found, _ = lint(project, "src")
    assert code == 1 and len(found) == 3
    code, found, _ = lint(project, "--write-baseline", "nagle-baseline.json", "src")
    assert (code, found) == (0, [])
    doc = json.loads((project / "nagle-baseline.json").read_text(encoding="utf-8"))
    assert doc["tool"] == "nagle-lint" and doc["version"] == 1
    assert [(e["path"], e["line"], e["rule"]) for e in doc["findings"]] == [
        ("src/a.py", 7, "NGL001"), ("src/a.py", 16, "NGL001"), ("src/b.py", 7, "NGL001")]
    assert all(len(e["fingerprint"]) == 32 for e in doc["findings"])
    assert lint(project, "--baseline", "nagle-baseline.json", "src")[:2] == (0, [])


def test_baseline_hides_exactly_the_old_findings(project):
    lint(project, "--write-baseline", "base.json", "src")
    a = project / "src" / "a.py"
    # Lines inserted above the old findings move them, but they stay known.
    a.write_text("# moved down\n\n\n" + a.read_text(encoding="utf-8"), encoding="utf-8")
    assert lint(project, "--baseline", "base.json", "src")[:2] == (0, [])
    # A new finding is reported, and only it; even one on a line identical to an old one.
    a.write_text(a.read_text(encoding="utf-8") + "\n\n" + split("fourth", "BODY", False), encoding="utf-8")
    code, found, _ = lint(project, "--baseline", "base.json", "src")
    assert (code, found) == (1, [("src/a.py", 28)])
    # An old finding whose line changed is a new finding.
    b = project / "src" / "b.py"
    b.write_text(b.read_text(encoding="utf-8").replace('b"BODY"', 'b"PAYLOAD"'), encoding="utf-8")
    code, found, _ = lint(project, "--baseline", "base.json", "src")
    assert (code, sorted(found)) == (1, [("src/a.py", 28), ("src/b.py", 7)])


def test_baseline_paths_are_from_the_repository_root(project):
    lint(project, "--write-baseline", "base.json", "src")
    assert lint(project / "src", "--baseline", "../base.json", ".")[:2] == (0, [])
    assert lint(project / "src", "--baseline", str(project / "base.json"), "b.py")[:2] == (0, [])


def test_baseline_and_sarif_fingerprints_agree(project):
    lint(project, "--write-baseline", "base.json", "src/a.py")
    (project / "src" / "a.py").write_text(split("zeroth", "BODY") + "\n\n" +
                                          (project / "src" / "a.py").read_text(encoding="utf-8")
                                          .replace("import socket\n", ""), encoding="utf-8")
    _, _, full = lint(project, "src/a.py", fmt="sarif")
    _, _, filtered = lint(project, "--baseline", "base.json", "src/a.py", fmt="sarif")
    for log in (json.loads(full), json.loads(filtered)):
        validate_sarif(log)
    full_results = json.loads(full)["runs"][0]["results"]
    (new,) = json.loads(filtered)["runs"][0]["results"]
    known = {e["fingerprint"] for e in json.loads((project / "base.json").read_text())["findings"]}
    assert new["fingerprints"]["nagle-lint/v1"] not in known
    # The occurrence counters do not depend on what the baseline hides.
    assert new in full_results
    assert sorted(r["fingerprints"]["nagle-lint/v1"] for r in full_results if r != new) == sorted(known)


def test_bad_baselines_are_usage_errors(project, capsys):
    assert lint(project, "--baseline", "nope.json", "src")[0] == 2
    assert "no such baseline file" in capsys.readouterr().err
    (project / "bad.json").write_text("{not json", encoding="utf-8")
    assert lint(project, "--baseline", "bad.json", "src")[0] == 2
    (project / "other.json").write_text('{"tool": "other", "findings": []}', encoding="utf-8")
    assert lint(project, "--baseline", "other.json", "src")[0] == 2
    assert "not a nagle-lint baseline" in capsys.readouterr().err


# --- --diff-base ---------------------------------------------------------------------


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(repo.parent)}
    proc = subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture
def repo(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "old.py").write_text(split("old"), encoding="utf-8")
    (repo / "tab\tname.py").write_text(split("tabbed"), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    return repo


def test_diff_base_reports_only_new_and_changed_lines(repo):
    assert lint(repo, ".")[1] == [("old.py", 7), ("tab\tname.py", 7)]
    assert lint(repo, "--diff-base", "HEAD", ".")[:2] == (0, [])
    old = repo / "old.py"
    old.write_text("# header\n" + old.read_text(encoding="utf-8") + "\n\n" + split("new", "NEW", False),
                   encoding="utf-8")
    (repo / "fresh.py").write_text(split("fresh"), encoding="utf-8")  # untracked: new in full
    tabbed = repo / "tab\tname.py"
    tabbed.write_text(tabbed.read_text(encoding="utf-8").replace('b"BODY"', 'b"BODY2"'), encoding="utf-8")
    code, found, _ = lint(repo, "--diff-base", "HEAD", ".")
    assert code == 1
    assert sorted(found) == [("fresh.py", 7), ("old.py", 17), ("tab\tname.py", 7)]
    # The same once committed, against the parent commit.
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "more")
    assert sorted(lint(repo, "--diff-base", "HEAD~1", ".")[1]) == sorted(found)
    assert lint(repo, "--diff-base", "HEAD", ".")[:2] == (0, [])


def test_diff_base_uses_the_merge_base(repo):
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "feature.py").write_text(split("feature"), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "feature")
    git(repo, "checkout", "-q", "main")
    old = repo / "old.py"
    old.write_text(old.read_text(encoding="utf-8").replace('b"BODY"', 'b"CHANGED ON MAIN"'), encoding="utf-8")
    git(repo, "commit", "-q", "-am", "main moves on")
    git(repo, "checkout", "-q", "feature")
    # old.py line 7 differs from main's tip, but the feature branch did not touch it.
    assert lint(repo, "--diff-base", "main", ".")[1] == [("feature.py", 7)]


def test_diff_base_from_a_subfolder(repo):
    (repo / "pkg").mkdir()
    (repo / "pkg" / "mod.py").write_text(split("mod"), encoding="utf-8")
    assert lint(repo / "pkg", "--diff-base", "HEAD", ".")[1] == [("mod.py", 7)]
    assert lint(repo / "pkg", "--diff-base", "HEAD", "..")[1] == [("../pkg/mod.py", 7)]


def test_baseline_and_diff_base_find_the_repository_from_the_linted_paths(repo, tmp_path):
    """A baseline written in the repository matches when the run starts
    elsewhere, and --diff-base works from outside the repository."""
    (repo / "src").mkdir()
    (repo / "src" / "mod.py").write_text(split("mod"), encoding="utf-8")
    assert lint(repo, "--write-baseline", "baseline.json", "src")[0] == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert lint(elsewhere, str(repo / "src"))[0] == 1
    assert lint(elsewhere, "--baseline", str(repo / "baseline.json"), str(repo / "src"))[:2] == (0, [])
    assert lint(repo / "src", "--baseline", "../baseline.json", ".")[:2] == (0, [])
    # Outside the repository, the repository of the linted paths is asked.
    assert lint(elsewhere, "--diff-base", "HEAD", str(repo))[1] == [(str(repo / "src" / "mod.py"), 7)]
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "src")
    assert lint(elsewhere, "--diff-base", "HEAD", str(repo))[:2] == (0, [])


def test_diff_base_errors(repo, tmp_path, capsys):
    assert lint(repo, "--diff-base", "no-such-ref", ".")[0] == 2
    assert "unknown git revision" in capsys.readouterr().err
    assert lint(repo, "--diff-base=--output=x", ".")[0] == 2
    assert not (repo / "x").exists()
    elsewhere = tmp_path / "not-a-repo"
    elsewhere.mkdir()
    (elsewhere / "a.py").write_text(split(), encoding="utf-8")
    env_dir = os.environ.get("GIT_CEILING_DIRECTORIES")
    os.environ["GIT_CEILING_DIRECTORIES"] = str(tmp_path)
    try:
        assert lint(elsewhere, "--diff-base", "HEAD", ".")[0] == 2
    finally:
        if env_dir is None:
            del os.environ["GIT_CEILING_DIRECTORIES"]
        else:
            os.environ["GIT_CEILING_DIRECTORIES"] = env_dir
    assert "not inside a git repository" in capsys.readouterr().err


def test_parse_diff_and_quoted_paths():
    diff = "\n".join([
        "diff --git a/x.py b/x.py", "--- a/x.py", "+++ b/x.py",
        "@@ -3,0 +4,2 @@", "+a", "+b", "@@ -10 +12 @@", "-c", "+d", "@@ -20,3 +22,0 @@", "-e",
        'diff --git "a/t\\tb.py" "b/t\\tb.py"', '--- "a/t\\tb.py"', '+++ "b/t\\tb.py"', "@@ -1 +1 @@",
        "diff --git a/gone.py b/gone.py", "--- a/gone.py", "+++ /dev/null", "@@ -1,2 +0,0 @@",
    ])
    assert parse_diff(diff) == {"x.py": {4, 5, 12}, "t\tb.py": {1}}
    assert unquote_path('"b/caf\\303\\251 \\"q\\".py"') == 'b/café "q".py'
    assert unquote_path("b/plain.py") == "b/plain.py"
