"""The rule documents (rules/NGL00N.md) are the single source of every rule's
metadata and help: they parse, they agree with the registry of checks and with
README.md's table, and their bad/fixed examples really are bad and fixed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nagle_lint.checks import CHECKS
from nagle_lint.config import LEVELS, Settings
from nagle_lint.site import CONFIDENCES
from nagle_lint.rules import HEADER_KEYS, OPT_IN, all_rules, parse, table
from nagle_lint.runner import lint_file

ROOT = Path(__file__).resolve().parent.parent
# Every document directly in rules/ is a shipped rule (drafts live in a subfolder).
SHIPPED = tuple(sorted(p.stem for p in (ROOT / "rules").glob("NGL[0-9][0-9][0-9].md")))
EXTENSIONS = {"python": ".py", "java": ".java", "c": ".c"}
SECTIONS = ("## What it finds", "## Why it hurts", "## Example", "## How to fix", "## When it is fine")


def examples(rule):
    """(language, "bad" | "fixed", code) for every example block of the rule's document."""
    for m in re.finditer(r"^```(\w+) (bad|fixed)\n(.*?)^```", rule.body, re.S | re.M):
        yield m.group(1), m.group(2), m.group(3)


def test_every_shipped_rule_is_loaded_and_no_draft():
    """Exactly the documents directly in rules/ are loaded (not rules/drafts/)."""
    assert tuple(all_rules()) == SHIPPED
    assert {"NGL001", "NGL002", "NGL003", "NGL004"} <= set(SHIPPED)


def test_every_rule_has_a_check_and_every_check_a_rule():
    assert set(CHECKS) == set(all_rules())


@pytest.mark.parametrize("rule_id", SHIPPED)
def test_document_parses_and_is_complete(rule_id):
    path = ROOT / "rules" / f"{rule_id}.md"
    text = path.read_text(encoding="utf-8")
    rule = parse(text)
    assert rule == all_rules()[rule_id]
    assert rule.id == rule_id == path.stem
    header = text.split("---\n")[1]
    assert tuple(line.partition(":")[0] for line in header.splitlines()) == HEADER_KEYS
    assert re.fullmatch(r"[a-z]+(-[a-z]+)+", rule.name), rule.name
    assert rule.summary and not rule.summary.endswith(".") and "\n" not in rule.summary
    assert rule.level in LEVELS
    assert rule.precision in CONFIDENCES
    assert rule.languages and set(rule.languages) <= set(EXTENSIONS)
    assert rule.tags
    assert rule.body.startswith(f"# {rule.id} {rule.name}\n")
    assert rule.description and not rule.description.startswith("#")
    positions = [rule.body.find(s + "\n") for s in SECTIONS]
    assert all(p > 0 for p in positions), [s for s, p in zip(SECTIONS, positions) if p < 0]
    assert positions == sorted(positions), "sections out of order"
    assert rule.url.endswith(f"/rules/{rule_id}.md")


def test_rule_names_are_unique():
    names = [r.name for r in all_rules().values()]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("rule_id", SHIPPED)
def test_every_language_of_a_rule_has_a_bad_and_a_fixed_example(rule_id):
    rule = all_rules()[rule_id]
    kinds = {(lang, kind) for lang, kind, _ in examples(rule)}
    assert kinds == {(lang, kind) for lang in rule.languages for kind in ("bad", "fixed")}


def test_parse_rejects_a_document_without_header():
    with pytest.raises(ValueError):
        parse("# NGL009 something\n\ntext\n")


def test_parse_rejects_a_header_with_missing_keys():
    with pytest.raises(ValueError):
        parse("---\nid: NGL009\nname: x-y\n---\n# NGL009 x-y\n\ntext\n")


# --- README ------------------------------------------------------------------------


def test_readme_rule_table_is_generated_from_the_documents():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- rules-table[^>]*-->\n(.*?)<!-- end rules-table -->", readme, re.S)
    assert m, "README.md has no <!-- rules-table ... --> ... <!-- end rules-table --> block"
    assert m.group(1) == table(), "README.md's rule table is stale: paste nagle_lint.rules.table() between the markers"
    assert readme.count("<!-- rules-table") == 1


def test_table_lists_every_rule_with_its_link():
    rows = table().splitlines()[2:]
    assert len(rows) == len(all_rules())
    for row, rule in zip(rows, all_rules().values()):
        assert row.startswith(f"| [{rule.id}](rules/{rule.id}.md) | {rule.name} | {rule.summary} | {rule.level}")
        assert (ROOT / "rules" / f"{rule.id}.md").is_file()
        assert ("off unless selected" in row) == (rule.id in OPT_IN)


# --- the examples ---------------------------------------------------------------------


def _examples():
    for rule in all_rules().values():
        counts: dict = {}
        for lang, kind, code in examples(rule):
            counts[(lang, kind)] = counts.get((lang, kind), 0) + 1
            n = counts[(lang, kind)]
            yield pytest.param(rule.id, lang, kind, code, id=f"{rule.id}-{lang}-{kind}" + (f"-{n}" if n > 1 else ""))


EXAMPLES = list(_examples())


def test_there_are_examples():
    assert len(EXAMPLES) >= 2 * sum(len(r.languages) for r in all_rules().values())


@pytest.mark.parametrize("rule_id, lang, kind, code", EXAMPLES)
def test_example(tmp_path, rule_id, lang, kind, code):
    path = tmp_path / f"Example{EXTENSIONS[lang]}"
    path.write_text(code, encoding="utf-8")
    # A rule that is off by default is linted with every rule selected by name.
    settings = Settings(select=tuple(all_rules())) if rule_id in OPT_IN else Settings()
    _, findings, problem, errors = lint_file(str(path), settings)
    assert problem is None, problem
    assert errors == 0, f"the {lang} example does not parse cleanly ({errors} syntax errors)"
    shown = [f for f in findings if f.suppressed is None]
    listing = "\n".join(f"  line {f.site.line}: {f.rule} {f.message}" for f in shown) or "  (none)"
    if kind == "bad":
        assert any(f.rule == rule_id for f in shown), f"the bad example does not trigger {rule_id}; found:\n{listing}"
    else:
        assert not shown, f"the fixed example still has findings:\n{listing}"
