"""The documented-bugs scorer: its matching rules, its split, and the corpus file's form.

No mirrors and no network: the functions are fed findings as nagle-lint's JSON gives them.
"""

from __future__ import annotations

import importlib.util
import sys
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
        assert len(b.buggy_commit) == 40 and len(b.fixed_commit) == 40, b.id
        assert b.link.startswith("https://"), b.id
