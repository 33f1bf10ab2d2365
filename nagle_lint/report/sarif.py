"""SARIF 2.1.0, built as plain data by small builder functions.

The log is held to the OASIS schema and to the SARIF SDK's validator with
GitHub's ingestion rules (`Sarif.Multitool validate --rule-kind
"Sarif;Gh;Ghas"`).  Choices worth knowing:

* Columns are UTF-16 code units (`columnKind: utf16CodeUnits`, the SARIF
  default, which is what consumers that ignore `columnKind` assume).  Findings
  count columns in Unicode characters; a character outside the Basic
  Multilingual Plane counts twice here.  A tab is one column, as everywhere.
* The result message links every related location (`[line 28](1)`): GitHub
  shows related locations only when the message links them.  Literal `{` and
  `}` are doubled, as SARIF requires of every message string.
* A finding's fix in words goes in `properties.fix`; where nagle-lint can
  make the edit (see fixes.py), it is in `fixes` too: its replacements, in
  lines and UTF-16 columns, and in its description whether it is safe.
* Suppressed findings are left out unless asked for: GitHub does not read
  `suppressions` and would raise them as alerts.
* Output is deterministic: the same findings give the same bytes.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from .. import __version__
from ..fingerprint import FINGERPRINT, LINE_HASH, Lines, attach, find_root, uri_of
from ..fingerprint import of as fingerprints_of
from ..prepared import PARTIAL
from ..rules import Rule, all_rules

Json = dict[str, Any]

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
VERSION = "2.1.0"
TOOL_NAME = "nagle-lint"
INFORMATION_URI = "https://github.com/nagle-lint/nagle-lint"
SRCROOT = "%SRCROOT%"
MAX_DESCRIPTION = 1024
PROBLEM_SEVERITY = {"error": "error", "warning": "warning", "note": "recommendation"}
RANK = {"high": 90.0, "medium": 60.0, "low": 30.0}


# --- small pieces -----------------------------------------------------------


def sentence(text: str) -> str:
    """The text ending with a full stop (SARIF messages are sentences)."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def escape_braces(text: str) -> str:
    """SARIF reserves `{n}` for placeholders: literal braces are doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def escape_link_text(text: str) -> str:
    """Inside the text of an embedded link, `\\`, `[` and `]` are escaped."""
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def limit(text: str, size: int = MAX_DESCRIPTION) -> str:
    """At most `size` characters, cut at a sentence or word boundary."""
    if len(text) <= size:
        return text
    cut = text[: size - 1]
    end = cut.rfind(". ")
    cut = cut[: end + 1] if end > size // 2 else cut[: cut.rfind(" ")] + "\u2026"
    return cut


def message(text: str) -> Json:
    return {"text": text}


def utf16_column(line: str | None, column: int) -> int:
    """A 1-based character column as a 1-based UTF-16 code unit column."""
    if line is None:
        return column
    return column + sum(1 for ch in line[: column - 1] if ord(ch) > 0xFFFF)


def region(site, lines: Lines, path: str) -> Json:
    start = lines.line(path, site.line)
    end = start if site.end_line == site.line else lines.line(path, site.end_line)
    return {
        "startLine": site.line,
        "startColumn": utf16_column(start, site.col),
        "endLine": site.end_line,
        "endColumn": utf16_column(end, site.end_col),
    }


def artifact_location(path: str, root: Path) -> Json:
    uri, relative = uri_of(path, root)
    return {"uri": uri, "uriBaseId": SRCROOT} if relative else {"uri": uri}


def physical_location(path: str, root: Path, site=None, lines: Lines | None = None) -> Json:
    loc: Json = {"artifactLocation": artifact_location(path, root)}
    if site is not None:
        loc["region"] = region(site, lines or Lines(), path)
    return loc


def location(physical: Json, *, ident: int | None = None, text: str | None = None) -> Json:
    loc: Json = {}
    if ident is not None:
        loc["id"] = ident
    loc["physicalLocation"] = physical
    if text is not None:
        loc["message"] = message(escape_braces(text))
    return loc


# --- results ----------------------------------------------------------------


MENTION = re.compile(r"\bline (?P<line>\d+)\b|(?P<path>[^\s()\[\]{}'\",;:]+):(?P<pline>\d+)\b")


def _same_file(a: str, b: str) -> bool:
    return os.path.normpath(a) == os.path.normpath(b)


def linked_message(text: str, related, path: str = "") -> str:
    """The finding's message with each related location linked by id.

    The first unlinked mention of a related location (`line N` in the
    finding's file, `other/file.py:N` in another) becomes a link such as
    `[line N](id)`; related locations the text does not mention are linked in
    a sentence appended at the end."""
    text = sentence(escape_braces(text))
    mentions = list(MENTION.finditer(text))
    used: dict[int, int] = {}  # index in mentions -> location id
    extra = []
    for number, step in enumerate(related, start=1):
        own = step.path is None or _same_file(step.path, path)
        for i, m in enumerate(mentions):
            if i in used:
                continue
            if m.group("line") is not None:
                hit = own and int(m.group("line")) == step.site.line
            else:
                hit = int(m.group("pline")) == step.site.line and _same_file(m.group("path"), path if own else step.path)
            if hit:
                used[i] = number
                break
        else:
            where = f"line {step.site.line}" if own else f"{step.path}:{step.site.line}"
            extra.append(f"[{escape_link_text(escape_braces(f'{step.label}, {where}'))}]({number})")
    out, last = [], 0
    for i, m in enumerate(mentions):
        if i in used:
            out.append(text[last:m.start()])
            out.append(f"[{escape_link_text(m.group(0))}]({used[i]})")
            last = m.end()
    out.append(text[last:])
    linked = "".join(out)
    if extra:
        linked += " Related: " + ", ".join(extra) + "."
    return linked


def step_location(finding, step, root: Path, lines: Lines, ident: int | None = None) -> Json:
    return location(physical_location(step.path or finding.path, root, step.site, lines), ident=ident,
                    text=step.label)


def code_flow(finding, root: Path, lines: Lines) -> Json:
    steps = [{"location": step_location(finding, step, root, lines)} for step in finding.flow]
    return {"threadFlows": [{"locations": steps}]}


def position(data: bytes, offset: int) -> tuple[int, int]:
    """(1-based line, 1-based UTF-16 column) of a byte offset of the text."""
    start = data.rfind(b"\n", 0, offset) + 1
    before = data[start:offset].decode("utf-8", "replace")
    return data.count(b"\n", 0, offset) + 1, len(before.encode("utf-16-le")) // 2 + 1


def fix_objects(findings, root: Path, lines: Lines) -> dict[int, list]:
    """id(finding) -> its `fixes`, for the findings with a fix nagle-lint can make."""
    from ..fixes import decode, render

    by_path: dict[str, list] = {}
    for f in findings:
        if f.proposal is not None:
            by_path.setdefault(f.path, []).append(f)
    out = {}
    for path, group in by_path.items():
        raw = lines.data(path)
        try:
            data, how = decode(raw) if raw is not None else (None, None)
        except UnicodeError:
            continue
        for f, fix in render(path, data, group) if data is not None else ():
            replacements = []
            for e in fix.edits:
                (l1, c1), (l2, c2) = position(data, e.start), position(data, e.end)
                replacements.append({
                    "deletedRegion": {"startLine": l1, "startColumn": c1, "endLine": l2, "endColumn": c2},
                    "insertedContent": {"text": e.text.replace("\n", how.newline.decode())},
                })
            out[id(f)] = [{
                "description": message(sentence(escape_braces(f"{fix.title} ({fix.applicability})"))),
                "artifactChanges": [{"artifactLocation": artifact_location(path, root), "replacements": replacements}],
            }]
    return out


def result_object(finding, rule_index: int, root: Path, lines: Lines, fixes: list | None = None) -> Json:
    res: Json = {
        "ruleId": finding.rule,
        "ruleIndex": rule_index,
        "level": finding.level,
        "message": message(linked_message(finding.message, finding.related, finding.path)),
        "locations": [location(physical_location(finding.path, root, finding.site, lines))],
    }
    if finding.related:
        res["relatedLocations"] = [
            step_location(finding, step, root, lines, number) for number, step in enumerate(finding.related, start=1)
        ]
    if finding.flow:
        res["codeFlows"] = [code_flow(finding, root, lines)]
    prints = fingerprints_of(finding)
    res["partialFingerprints"] = {LINE_HASH: prints[LINE_HASH]}
    res["fingerprints"] = {FINGERPRINT: prints[FINGERPRINT]}
    res["rank"] = RANK.get(finding.confidence, 50.0)
    if finding.suppressed is not None:
        res["suppressions"] = [{"kind": "inSource", "justification": finding.suppressed}]
    if fixes:
        res["fixes"] = fixes
    props: Json = {"confidence": finding.confidence}
    if finding.fix:
        props["fix"] = finding.fix
    res["properties"] = props
    return res


# --- the tool ---------------------------------------------------------------


def rule_descriptor(rule: Rule) -> Json:
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": message(sentence(rule.summary)),
        "fullDescription": message(limit(sentence(rule.description))),
        "help": {"text": rule.body, "markdown": rule.body},
        "helpUri": rule.url,
        "defaultConfiguration": {"level": rule.level},
        "properties": {
            "tags": list(rule.tags),
            "precision": rule.precision,
            "problem.severity": PROBLEM_SEVERITY.get(rule.level, "warning"),
        },
    }


def driver(rules: list[Rule]) -> Json:
    return {
        "name": TOOL_NAME,
        "semanticVersion": __version__,
        "informationUri": INFORMATION_URI,
        "rules": [rule_descriptor(r) for r in rules],
    }


def notification(path: str, problem: str, root: Path) -> Json:
    level = "note" if problem.endswith(PARTIAL) else "warning"
    return {
        "level": level,
        "message": message(sentence(escape_braces(problem))),
        "locations": [location(physical_location(path, root))],
    }


def invocation(result, root: Path) -> Json:
    return {
        # Like the exit code: only a run that could lint nothing failed.
        "executionSuccessful": not (result.files == 0 and result.problems),
        "toolExecutionNotifications": [notification(p, m, root) for p, m in result.problems],
    }


def sarif_log(result, *, include_suppressed: bool = False, root: Path | None = None,
              lines: Lines | None = None) -> Json:
    root = root or find_root()
    lines = lines or Lines()
    attach(result.findings, root, lines)
    rules = list(all_rules().values())
    findings = [f for f in result.findings if include_suppressed or f.suppressed is None]
    known = {r.id for r in rules}
    # A rule without a document (not expected) still gets a descriptor, so results stay valid.
    rules += [Rule(id=rid, name=rid, summary=rid, level="warning", precision="medium", languages=(), tags=(),
                   description=rid, body=rid) for rid in sorted({f.rule for f in findings} - known)]
    index = {r.id: i for i, r in enumerate(rules)}
    fixes = fix_objects(findings, root, lines)
    run: Json = {
        "tool": {"driver": driver(rules)},
        "invocations": [invocation(result, root)],
        "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri().rstrip("/") + "/"}},
        "columnKind": "utf16CodeUnits",
        "results": [result_object(f, index[f.rule], root, lines, fixes.get(id(f))) for f in findings],
    }
    return {"$schema": SCHEMA_URI, "version": VERSION, "runs": [run]}


def render(result, include_suppressed: bool = False, root: Path | None = None, lines: Lines | None = None, **_) -> str:
    log = sarif_log(result, include_suppressed=include_suppressed, root=root, lines=lines)
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
