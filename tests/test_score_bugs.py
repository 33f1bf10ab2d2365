"""The documented-bugs scorer: its matching rules, its split, and the corpus file's form.

No mirrors and no network: the functions are fed findings as nagle-lint's JSON gives them, and
the parts that read a mirror get a small git repository made in a temporary folder.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "realworld" / "score_bugs.py"


def _load():
    spec = importlib.util.spec_from_file_location("score_bugs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["score_bugs"] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


sb = _load()


def bug(**changes):
    fields = dict(id="x", language="C", repo="o/r", buggy_commit="a", fixed_commit="b",
                  path="src/net.c", lines=[20], link="", reason="", split="tune",
                  fixed_lines=[30])
    fields.update(changes)
    return sb.Bug(**fields)


def finding(rule, line, path="src/net.c"):
    return {"rule": rule, "path": path, "line": line}


def test_found_needs_the_rule_the_file_and_a_line_within_two():
    b = bug()
    assert sb.found(b, [finding("NGL001", 22)])
    assert sb.found(b, [finding("NGL001", 18)])
    assert not sb.found(b, [finding("NGL001", 23)])
    assert not sb.found(b, [finding("NGL001", 20, path="src/other.c")])
    assert not sb.found(b, [finding("NGL002", 20)])
    assert sb.found(bug(rules=["NGL003"]), [finding("NGL003", 20)])
    assert not sb.found(bug(rules=["NGL003"]), [finding("NGL001", 20)])


def test_found_on_any_of_several_sites():
    b = bug(lines=[20, 90])
    assert sb.found(b, [finding("NGL001", 91)])


def test_fixed_clean_means_no_stall_finding_at_the_fixed_lines():
    b = bug()
    assert sb.fixed_as_expected(b, [])
    assert sb.fixed_as_expected(b, [finding("NGL001", 40), finding("NGL002", 30)])
    assert not sb.fixed_as_expected(b, [finding("NGL001", 31)])
    assert not sb.fixed_as_expected(b, [finding("NGL004", 30)])


def test_fixed_by_nodelay_expects_the_band_aid_warning_and_no_stall():
    b = bug(expect_fixed="NGL002", fixed_lines=[12], fixed_split_lines=[40])
    assert sb.fixed_as_expected(b, [finding("NGL002", 12)])
    assert not sb.fixed_as_expected(b, [])
    assert not sb.fixed_as_expected(b, [finding("NGL002", 12), finding("NGL001", 41)])


def test_fixed_path_defaults_to_path():
    assert bug().fixed_path == "src/net.c"
    b = bug(fixed_path="src/moved.c")
    assert not sb.fixed_as_expected(b, [finding("NGL001", 30, path="src/moved.c")])
    assert sb.fixed_as_expected(b, [finding("NGL001", 30)])


def test_split_is_deterministic_and_balanced_per_language():
    bugs = [bug(id=f"{lang}-{n}", language=lang) for lang in ("C", "Java") for n in range(5)]
    split = sb.split_of(bugs)
    assert split == sb.split_of(list(reversed(bugs)))
    counts = Counter((b.language, split[b.id]) for b in bugs)
    assert counts == {("C", "tune"): 3, ("C", "holdout"): 2,
                      ("Java", "tune"): 3, ("Java", "holdout"): 2}


def test_a_later_round_never_changes_an_earlier_one_and_evens_out_the_halves():
    first = [bug(id=f"C-{n}") for n in range(5)]  # round 1: 3 tune, 2 holdout
    second = [bug(id=f"C2-{n}", round=2) for n in range(3)]
    before = sb.split_of(first)
    after = sb.split_of(first + second)
    assert {i: after[i] for i in before} == before
    # Round 2 starts with the half that round 1 left short, so 8 entries split 4 / 4.
    assert Counter(after.values()) == {"tune": 4, "holdout": 4}
    third = [bug(id=f"C3-{n}", round=3) for n in range(4)]
    again = sb.split_of(first + second + third)
    assert {i: again[i] for i in after} == after
    assert Counter(again.values()) == {"tune": 6, "holdout": 6}


def git(repo, *args) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


def commit(repo, message) -> str:
    git(repo, "commit", "-q", "-am", message)
    return git(repo, "rev-parse", "HEAD")


BUGGY = "import socket\n\ndef ask(s):\n    s.sendall(b'h')\n    s.sendall(b'b')\n    return s.recv(9)\n"
FIXED = "import socket\n\ndef ask(s):\n    s.sendall(b'h' + b'b')\n    return s.recv(9)\n"


def mirror_with_a_fix(mirrors: Path):
    """A mirror o+r whose first commit splits a message in two sends and whose second merges them."""
    repo = mirrors / "o+r"
    repo.mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "net.py").write_text(BUGGY)
    git(repo, "add", "net.py")
    buggy = commit(repo, "split")
    (repo / "net.py").write_text(FIXED)
    fixed = commit(repo, "merged")
    return buggy, fixed


def test_check_refs_finds_missing_commits_paths_and_lines_out_of_range():
    with tempfile.TemporaryDirectory() as tmp:
        mirrors = Path(tmp)
        buggy, fixed = mirror_with_a_fix(mirrors)
        good = bug(language="Python", buggy_commit=buggy, fixed_commit=fixed, path="net.py",
                   lines=[5], first_lines=[4], read_lines=[6], fixed_lines=[4])
        assert sb.check_refs(good, mirrors) == []
        assert sb.check_refs(bug(repo="o/none"), mirrors) == ["no mirror of o/none"]
        assert sb.check_refs(bug(buggy_commit=buggy, fixed_commit="f" * 40, path="net.py"),
                             mirrors) == [f"commit {'f' * 40} is not in the mirror"]
        reversed_ = bug(buggy_commit=fixed, fixed_commit=buggy, path="net.py", lines=[5],
                        fixed_lines=[4])
        assert any("not an ancestor" in p for p in sb.check_refs(reversed_, mirrors))
        assert sb.check_refs(bug(buggy_commit=buggy, fixed_commit=fixed, path="gone.py"),
                             mirrors) == [f"gone.py is not in commit {buggy[:10]}",
                                          f"gone.py is not in commit {fixed[:10]}"]
        # The buggy file has 6 lines, the fixed one 5.
        problems = sb.check_refs(bug(buggy_commit=buggy, fixed_commit=fixed, path="net.py",
                                     lines=[7], fixed_lines=[6]), mirrors)
        assert problems == [f"lines 7 is outside net.py (6 lines) at {buggy[:10]}",
                            f"fixed_lines 6 is outside net.py (5 lines) at {fixed[:10]}"]


def fake_ast_grep(folder: Path, line0: int) -> str:
    """An executable that answers like `ast-grep scan --json=compact` with one NGL001 match on
    net.py at the 0-based line `line0`, whatever the tree."""
    exe = folder / "fake-ast-grep"
    match = [{"file": "net.py", "range": {"start": {"line": line0}},
              "ruleId": "ngl001-python-split-write-then-read", "message": "split"}]
    exe.write_text(f"#!{sys.executable}\nprint({json.dumps(json.dumps(match))})\n")
    exe.chmod(0o755)
    return str(exe)


def test_a_peer_finding_on_the_labelled_line_counts_as_found():
    with tempfile.TemporaryDirectory() as tmp:
        mirrors = Path(tmp) / "mirrors"
        buggy, fixed = mirror_with_a_fix(mirrors)
        b = bug(language="Python", buggy_commit=buggy, fixed_commit=fixed, path="net.py",
                lines=[5], fixed_lines=[4])
        on_the_line = sb.score(b, mirrors, {"ast-grep": fake_ast_grep(Path(tmp), 4)})
        # The fake reports line 5 at both commits: found, and within 2 lines of the merged send
        # at line 4 of the fixed version, so that one is not clean.
        assert on_the_line["ast-grep"] == (True, False)
        elsewhere = sb.score(b, mirrors, {"ast-grep": fake_ast_grep(Path(tmp), 0)})
        assert elsewhere["ast-grep"] == (False, True)
        assert set(elsewhere) == {"default", "low", "ast-grep"}


def test_the_corpus_is_well_formed_and_split_as_computed():
    bugs = sb.load_bugs(ROOT / "benchmarks" / "realworld" / "bugs.toml")
    assert len({b.id for b in bugs}) == len(bugs)
    split = sb.split_of(bugs)
    for b in bugs:
        assert b.language in sb.LANGUAGES, b.id
        assert b.split == split[b.id], b.id
        assert b.lines and b.fixed_lines, b.id
        assert b.expect_fixed in ("clean", "NGL002"), b.id
        assert b.scope in ("repo", "dir"), b.id
        assert b.round >= 1, b.id
        assert len(b.buggy_commit) == 40 and len(b.fixed_commit) == 40, b.id
        assert b.link.startswith("https://"), b.id


def test_export_leaves_out_files_the_mirror_does_not_hold():
    # Stored snapshots may leave out their largest files; git archive then fails on the whole tree.
    with tempfile.TemporaryDirectory() as tmp:
        mirrors = Path(tmp) / "mirrors"
        buggy, _fixed = mirror_with_a_fix(mirrors)
        repo = mirrors / "o+r"
        (repo / "big.bin").write_bytes(b"\0" * 64)
        git(repo, "add", "big.bin")
        with_blob = commit(repo, "a large file")
        oid = git(repo, "rev-parse", f"{with_blob}:big.bin")
        (repo / ".git" / "objects" / oid[:2] / oid[2:]).unlink()
        out = Path(tmp) / "out"
        out.mkdir()
        sb.export(repo / ".git", with_blob, out, None)
        assert (out / "net.py").read_text() == FIXED
        assert not (out / "big.bin").exists()
