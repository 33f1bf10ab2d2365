"""The rule documents (rules/NGL00N.md): the one source of every rule's
name, summary, level and help text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

HEADER_KEYS = ("id", "name", "summary", "level", "precision", "languages", "tags")
# Rules that run only when selected by name.
OPT_IN = {"NGL005", "NGL006", "NGL100"}
# The rules whose findings can start from a send on a connection that a framework makes with
# TCP_NODELAY on and buffers until a flush (Netty 4's channels): there no other rule finds anything
# (nothing stalls, no option was set by the code, no small write leaves on its own), so the byte
# scan counts such sends only where one of these runs.
ON_NODELAY_BY_DESIGN = frozenset({"NGL006"})


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    name: str
    summary: str
    level: str
    precision: str
    languages: tuple[str, ...]
    tags: tuple[str, ...]
    description: str  # the paragraph under the title
    body: str  # the whole document without its header

    @property
    def url(self) -> str:
        return f"https://github.com/nagle-lint/nagle-lint/blob/main/rules/{self.id}.md"


def _rules_dir():
    from importlib import resources  # only here: a run that reads no rule document does not load it
    from pathlib import Path

    packaged = resources.files("nagle_lint").joinpath("rules")
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "rules"  # a source checkout


def parse(text: str) -> Rule:
    m = re.match(r"---\n(.*?)\n---\n(.*)", text, re.S)
    if not m:
        raise ValueError("rule document has no '---' header")
    meta = {}
    for line in m.group(1).splitlines():
        key, _, value = line.partition(":")
        meta[key.strip()] = value.strip()
    if tuple(meta) != HEADER_KEYS:
        raise ValueError(f"rule header keys must be {HEADER_KEYS}, got {tuple(meta)}")
    body = m.group(2).strip() + "\n"
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", body) if p.strip()]
    description = next(p for p in paragraphs if not p.startswith("#"))
    split = lambda v: tuple(x.strip() for x in v.split(",") if x.strip())  # noqa: E731
    return Rule(meta["id"], meta["name"], meta["summary"], meta["level"], meta["precision"],
                split(meta["languages"]), split(meta["tags"]), " ".join(description.split()), body)


@lru_cache(maxsize=None)
def all_rules() -> dict[str, Rule]:
    found = {}
    for entry in sorted(_rules_dir().iterdir(), key=lambda e: e.name):
        if re.fullmatch(r"NGL\d{3}\.md", entry.name):
            rule = parse(entry.read_text(encoding="utf-8"))
            found[rule.id] = rule
    return found


def table() -> str:
    """The Markdown rule table (README.md carries a copy; a test keeps them equal)."""
    rows = ["| id | name | what it finds | level | languages |", "| --- | --- | --- | --- | --- |"]
    for r in all_rules().values():
        level = r.level + (" (off unless selected)" if r.id in OPT_IN else "")
        rows.append(f"| [{r.id}](rules/{r.id}.md) | {r.name} | {r.summary} | {level} | {', '.join(r.languages)} |")
    return "\n".join(rows) + "\n"
