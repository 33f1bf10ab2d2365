"""benchmarks/realworld/score_projects.py: findings are matched to their labels by path, line and rule;
a finding with no label is listed and makes the exit status 3; a label no longer reported is listed."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "realworld" / "score_projects.py"

CLIENT = """import socket

s = socket.create_connection(("127.0.0.1", 1))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
"""


@pytest.fixture(scope="module")
def scorer():
    spec = importlib.util.spec_from_file_location("score_projects", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def write_projects(path: Path, findings: str) -> Path:
    path.write_text(f"""
[[project]]
name = "demo"
repo = "example/demo"
commit = "0123456789abcdef0123456789abcdef01234567"
language = "Python"
split = "holdout"
{findings}
""")
    return path


def run(scorer, tmp_path, findings, capsys):
    (tmp_path / "trees" / "demo").mkdir(parents=True)
    (tmp_path / "trees" / "demo" / "client.py").write_text(CLIENT)
    projects = write_projects(tmp_path / "projects.toml", findings)
    code = scorer.main(["--root", str(tmp_path / "trees"), "--projects", str(projects)])
    return code, capsys.readouterr().out


def test_a_labelled_finding_is_counted_under_its_label(scorer, tmp_path, capsys):
    code, out = run(scorer, tmp_path, """
[[project.finding]]
path = "client.py"
line = 4
rule = "NGL002"
label = "true"
reason = "set with no reason"
""", capsys)
    assert code == 0
    assert "| demo | Python | holdout | 0123456789 | 1 | 1 | 1 | 0 | 0 | 0 |" in out
    assert "| half: holdout | 1 | 1 | 0 | 0 | 0 | 1.00 | 1.00 |" in out
    assert "no label" not in out


def test_a_finding_without_label_is_listed_and_fails(scorer, tmp_path, capsys):
    code, out = run(scorer, tmp_path, """
[[project.finding]]
path = "client.py"
line = 3
rule = "NGL002"
label = "false"
reason = "a label on another line"
""", capsys)
    assert code == 3
    assert "| demo | Python | holdout | 0123456789 | 1 | 1 | 0 | 0 | 0 | 1 |" in out
    assert "https://github.com/example/demo/blob/0123456789abcdef0123456789abcdef01234567/client.py#L4" in out
    assert "`client.py:3` NGL002 (was false)" in out


def test_an_unknown_label_is_refused(scorer, tmp_path):
    projects = write_projects(tmp_path / "projects.toml", """
[[project.finding]]
path = "client.py"
line = 4
rule = "NGL002"
label = "maybe"
reason = ""
""")
    with pytest.raises(ValueError, match="maybe"):
        scorer.load_projects(projects)


def test_peer_rule_ids_name_the_rule(scorer):
    assert scorer.rule_of("ngl001-c-split-write-then-read") == "NGL001"
    assert scorer.rule_of("benchmarks.peers.ngl004-c-msg-more-last") == "NGL004"


def test_the_judged_file_carries_the_computed_halves(scorer):
    """Within a language, names ordered by SHA-256 alternate tune, holdout, tune, ..."""
    projects = scorer.load_projects(SCRIPT.parent / "projects.toml")
    assert len(projects) >= 15
    for language in ("C", "Java", "Python"):
        names = sorted((p.name for p in projects if p.language == language),
                       key=lambda n: hashlib.sha256(n.encode()).hexdigest())
        assert len(names) >= 4
        split = {p.name: p.split for p in projects}
        assert [split[n] for n in names] == [("tune", "holdout")[i % 2] for i in range(len(names))]
