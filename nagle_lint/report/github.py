"""GitHub Actions workflow commands: one annotation per finding.

    ::warning file=src/client.py,line=30,col=5,endLine=30,endColumn=24,title=NGL001 split-write-before-read::second send ...

GitHub shows at most 10 annotations of each level per step, so the most
important come first (errors, warnings, notices; surer findings first).  After
them every finding and every file that could not be linted is listed as plain
text inside a `::stop-commands::` fence with a random token, so that nothing
taken from the linted code (paths, names) can issue workflow commands; a
summary line with the totals ends the output.

`python -m nagle_lint.report.github FILE.sarif` prints the same from a SARIF
log written by nagle-lint (the GitHub Action lints once and derives both the
SARIF upload and the annotations from it).
"""

from __future__ import annotations

import json
import re
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from ..fingerprint import find_root, repo_path
from ..rules import all_rules
from .text import suppressed_note

LEVELS = {"error": "error", "warning": "warning", "note": "notice"}
LEVEL_ORDER = ("error", "warning", "notice")
CONFIDENCE_ORDER = ("high", "medium", "low")
SHOWN_PER_LEVEL = 10  # GitHub's limit of annotations per level and step


@dataclass(frozen=True)
class Annotation:
    level: str  # error, warning or notice
    path: str  # from the repository root
    line: int
    col: int
    end_line: int
    end_col: int
    title: str
    message: str
    confidence: str = "medium"

    def importance(self):
        return (LEVEL_ORDER.index(self.level), CONFIDENCE_ORDER.index(self.confidence) if self.confidence in
                CONFIDENCE_ORDER else 1, self.path, self.line, self.col, self.title)


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(a: Annotation) -> str:
    props = [f"file={escape_property(a.path)}", f"line={a.line}"]
    if a.end_line == a.line:  # GitHub uses columns on one-line annotations only
        props += [f"col={a.col}", f"endLine={a.end_line}", f"endColumn={a.end_col}"]
    else:
        props += [f"endLine={a.end_line}"]
    props.append(f"title={escape_property(a.title)}")
    return f"::{a.level} {','.join(props)}::{escape_data(a.message)}"


def _title(rule_id: str) -> str:
    rule = all_rules().get(rule_id)
    return f"{rule_id} {rule.name}" if rule else rule_id


def from_findings(findings, root: Path) -> list[Annotation]:
    """Suppressed findings (given with --include-suppressed) are notices that say why."""
    out = []
    for f in findings:
        s = f.site
        level = LEVELS.get(f.level, "warning") if f.suppressed is None else "notice"
        out.append(Annotation(level, repo_path(f.path, root) or f.path, s.line, s.col,
                              s.end_line, s.end_col, _title(f.rule), f.message + suppressed_note(f), f.confidence))
    return out


def _plain(text: str) -> str:
    """A SARIF message as plain text: links to their text, braces undoubled."""
    text = re.sub(r"\[((?:\\.|[^\\\]])*)\]\(\d+\)", lambda m: re.sub(r"\\(.)", r"\1", m.group(1)), text)
    return text.replace("{{", "{").replace("}}", "}")


def _sarif_path(artifact: dict) -> str:
    uri = artifact.get("uri", "")
    if uri.startswith("file://"):
        return unquote(uri[len("file://"):])
    return unquote(uri)


def from_sarif(log: dict) -> tuple[list[Annotation], list[tuple[str, str]]]:
    """(annotations, problems) from a nagle-lint SARIF log."""
    annotations, problems = [], []
    for run in log.get("runs", []):
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        for res in run.get("results", []):
            if res.get("suppressions"):
                continue
            phys = res["locations"][0]["physicalLocation"]
            reg = phys.get("region", {})
            line = reg.get("startLine", 1)
            rule_id = res.get("ruleId", "")
            index = res.get("ruleIndex")
            name = rules[index].get("name") if isinstance(index, int) and index < len(rules) else None
            annotations.append(Annotation(
                LEVELS.get(res.get("level", "warning"), "warning"), _sarif_path(phys["artifactLocation"]),
                line, reg.get("startColumn", 1), reg.get("endLine", line), reg.get("endColumn", 1),
                f"{rule_id} {name}" if name else rule_id, _plain(res["message"]["text"]),
                res.get("properties", {}).get("confidence", "medium"),
            ))
        for inv in run.get("invocations", []):
            for note in inv.get("toolExecutionNotifications", []):
                locs = note.get("locations") or [{}]
                path = _sarif_path(locs[0].get("physicalLocation", {}).get("artifactLocation", {}))
                problems.append((path, _plain(note["message"]["text"]).rstrip(".")))
    return annotations, problems


def summary(annotations: list[Annotation], files: int | None = None) -> str:
    counts = {level: sum(1 for a in annotations if a.level == level) for level in LEVEL_ORDER}
    n = len(annotations)
    where = f" in {files} file{'s' if files != 1 else ''}" if files is not None else ""
    if not n:
        return f"nagle-lint: no findings{where}."
    parts = ", ".join(f"{c} {level}{'s' if c != 1 else ''}" for level, c in counts.items() if c)
    text = f"nagle-lint: {n} finding{'s' if n != 1 else ''} ({parts}){where}."
    if any(c > SHOWN_PER_LEVEL for c in counts.values()):
        text += (f" GitHub shows the first {SHOWN_PER_LEVEL} annotations of each level, most important first;"
                 " all findings are listed above.")
    return text


def render_annotations(annotations: list[Annotation], problems, files: int | None = None,
                       token: str | None = None, annotate: bool = True) -> str:
    ordered = sorted(annotations, key=Annotation.importance)
    out = [command(a) for a in ordered] if annotate else []
    if annotations or problems:
        token = token or secrets.token_hex(16)
        out.append(f"::stop-commands::{token}")
        for a in sorted(annotations, key=lambda a: (a.path, a.line, a.col, a.title)):
            out.append(f"{a.path}:{a.line}:{a.col}: {a.title.split(' ')[0]} {a.message}")
        for path, problem in problems:
            out.append(f"nagle-lint: warning: {path}: {problem}")
        out.append(f"::{token}::")
    out.append(summary(annotations, files))
    return "\n".join(out) + "\n"


def render(result, root: Path | None = None, token: str | None = None, **_) -> str:
    root = root or find_root()
    problems = [(repo_path(p, root) or p, m) for p, m in result.problems]
    return render_annotations(from_findings(result.findings, root), problems, result.files, token)


def main(argv: list[str] | None = None) -> int:
    from ..arguments import Parser, UsageError, print_error

    parser = Parser(prog="python -m nagle_lint.report.github",
                    description="GitHub annotations (and the listing and summary after them) from a SARIF log "
                                "written by nagle-lint.")
    parser.add_argument("sarif", metavar="FILE.sarif")
    parser.add_argument("--no-annotations", action="store_true",
                        help="no workflow commands: only the listing and the summary")
    try:
        args = parser.parse_args(argv)
        with open(args.sarif, encoding="utf-8") as fh:
            log = json.load(fh)
    except UsageError as e:
        parser.print_usage(sys.stderr)
        print_error(str(e))
        return 2
    except (OSError, ValueError) as e:
        print_error(f"cannot read the SARIF log: {e}")
        return 2
    annotations, problems = from_sarif(log)
    sys.stdout.write(render_annotations(annotations, problems, annotate=not args.no_annotations))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
