"""benchmarks/realworld/score_projects.py: findings are matched to their labels by path, line and rule;
a finding with no label is listed and makes the exit status 3; a label no longer reported is listed."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from collections import Counter
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


def write_projects(path: Path, findings: str, split: str = "tune") -> Path:
    path.write_text(f"""
[[project]]
name = "demo"
repo = "example/demo"
commit = "0123456789abcdef0123456789abcdef01234567"
language = "Python"
split = "{split}"
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
    assert "| demo | Python | tune | 0123456789 | 1 | 1 | 1 | 0 | 0 | 0 |" in out
    assert "| half: tune | 1 | 1 | 0 | 0 | 0 | 1.00 | 1.00 |" in out
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
    assert "| demo | Python | tune | 0123456789 | 1 | 1 | 0 | 0 | 0 | 1 |" in out
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
    """Per round and language, names ordered by SHA-256 alternate between the halves; a later round
    leaves the earlier ones as they were and keeps each language balanced to within one project."""
    projects = scorer.load_projects(SCRIPT.parent / "projects.toml")
    assert len(projects) >= 39 and {p.round for p in projects} >= {1, 2}
    split = scorer.split_of(projects)
    assert {p.name: p.split for p in projects} == split
    for language in ("C", "Java", "Python"):
        first = sorted((p.name for p in projects if p.language == language and p.round == 1),
                       key=lambda n: hashlib.sha256(n.encode()).hexdigest())
        assert len(first) >= 4
        assert [split[n] for n in first] == [("tune", "holdout")[i % 2] for i in range(len(first))]
        halves = Counter(split[p.name] for p in projects if p.language == language)
        assert abs(halves["tune"] - halves["holdout"]) <= 1, language
    assert scorer.main(["--check-split"]) == 0


def test_a_later_round_starts_with_the_half_its_language_is_short_of(scorer):
    earlier = [(f"c{n}", "C", 1) for n in range(3)] + [(f"j{n}", "Java", 1) for n in range(2)]
    later = [(f"c2-{n}", "C", 2) for n in range(3)] + [(f"j2-{n}", "Java", 2) for n in range(3)]
    before = scorer.deal(earlier)
    after = scorer.deal(earlier + later)
    assert {name: after[name] for name in before} == before
    # C's round 1 left holdout short (2 tune, 1 holdout), Java's is a tie (tune first).
    c2 = sorted((n for n, _, _ in later if n.startswith("c")), key=lambda n: hashlib.sha256(n.encode()).hexdigest())
    j2 = sorted((n for n, _, _ in later if n.startswith("j")), key=lambda n: hashlib.sha256(n.encode()).hexdigest())
    assert [after[n] for n in c2] == ["holdout", "tune", "holdout"]
    assert [after[n] for n in j2] == ["tune", "holdout", "tune"]


def test_a_project_in_the_wrong_half_is_refused(scorer, tmp_path, capsys):
    projects = write_projects(tmp_path / "projects.toml", "", split="holdout")
    (tmp_path / "trees" / "demo").mkdir(parents=True)
    assert scorer.main(["--check-split", "--projects", str(projects)]) == 1
    assert scorer.main(["--root", str(tmp_path / "trees"), "--projects", str(projects)]) == 1
    assert "demo (should be 'tune')" in capsys.readouterr().err


def test_trees_linted_side_by_side_are_reported_in_the_file_order(scorer, tmp_path, capsys):
    names = ["zeta", "alpha", "mid"]  # not sorted: the table follows the file, not the order runs end
    text = ""
    for name in names:
        (tmp_path / "trees" / name).mkdir(parents=True)
        (tmp_path / "trees" / name / "client.py").write_text(CLIENT)
        text += f"""
[[project]]
name = "{name}"
repo = "example/{name}"
commit = "0123456789abcdef0123456789abcdef01234567"
language = "Python"
split = "{{split}}"

[[project.finding]]
path = "client.py"
line = 4
rule = "NGL002"
label = "true"
reason = "set with no reason"
"""
    split = scorer.deal([(n, "Python", 1) for n in names])
    for name in names:
        text = text.replace('split = "{split}"', f'split = "{split[name]}"', 1)
    (tmp_path / "projects.toml").write_text(text)
    code = scorer.main(["--root", str(tmp_path / "trees"), "--projects", str(tmp_path / "projects.toml"),
                        "--jobs", "3"])
    out = capsys.readouterr().out
    assert code == 0
    rows = [line.split(" | ")[0].lstrip("| ") for line in out.splitlines() if "| Python |" in line]
    assert rows == names
    assert "| all | 3 | 3 | 0 | 0 | 0 | 1.00 | 1.00 |" in out


FAKE_SEMGREP = """#!{python}
# Answers as semgrep does on a busy machine: with its per-rule timeout on (the default), the rule
# times out on the file and its finding is dropped; with --timeout 0 the rule runs to the end.
import json, sys
args = sys.argv[1:]
unlimited = "--timeout" in args and args[args.index("--timeout") + 1] == "0"
found = {{"check_id": "benchmarks.peers.ngl002-python-nodelay", "path": "client.py", "start": {{"line": 4}},
         "extra": {{"message": "TCP_NODELAY turned on"}}}}
print(json.dumps({{"results": [found] if unlimited else [],
                  "errors": [] if unlimited else [{{"type": "Timeout", "path": "client.py"}}]}}))
"""


def test_semgrep_runs_without_its_per_rule_timeout(scorer, tmp_path, capsys):
    # Otherwise a peer's findings would depend on how busy the machine is.
    fake = tmp_path / "semgrep"
    fake.write_text(FAKE_SEMGREP.format(python=sys.executable))
    fake.chmod(0o755)
    (tmp_path / "trees" / "demo").mkdir(parents=True)
    (tmp_path / "trees" / "demo" / "client.py").write_text(CLIENT)
    projects = write_projects(tmp_path / "projects.toml", """
[[project.finding]]
path = "client.py"
line = 4
rule = "NGL002"
label = "true"
reason = "set with no reason"
""")
    code = scorer.main(["--root", str(tmp_path / "trees"), "--projects", str(projects), "--peer", f"semgrep={fake}"])
    semgrep_part = capsys.readouterr().out.split("## semgrep")[1]
    assert code == 0
    assert "| all | 1 | 1 | 0 | 0 | 0 | 1.00 | 1.00 |" in semgrep_part
