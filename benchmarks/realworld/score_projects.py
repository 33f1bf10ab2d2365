#!/usr/bin/env python3
"""Score nagle-lint (and optionally its peers) on whole projects judged by hand in projects.toml.

The script fetches nothing. Put one tree per project under a folder, named as in projects.toml and
at the commit recorded there (a git checkout or an unpacked archive), then:

    python benchmarks/realworld/score_projects.py --root TREES
    python benchmarks/realworld/score_projects.py --root TREES --half holdout
    python benchmarks/realworld/score_projects.py --root TREES --peer ast-grep=PATH --peer semgrep=PATH
    python benchmarks/realworld/score_projects.py --show-commands --root TREES
    python benchmarks/realworld/score_projects.py --check-split

For each tree it runs nagle-lint at its default settings (the copy in this repository; --jobs trees at a
time, one per core by default, so a time is a tree's own while others run beside it), matches each
finding to the labels by path, line and rule, and prints Markdown tables: per project (files, findings,
true/false/debatable, time), then precision per half (tune, holdout) and per language, both as
true / (true + false + debatable) and as true / (true + false). Findings with no label are listed
with a link: they must be judged and added to projects.toml, never counted silently; labelled findings
no longer reported are listed too. A peer's finding shares the label of nagle-lint's finding at the same
path, line and rule (its rule id starts with the rule's name, e.g. ngl001-c-split-write-then-read); a label
with `found_by` was judged on a line only the peers named there reported.

Each project's `split` must be the one deal() computes from the names, languages and rounds (the rule
bugs.toml follows too); the script refuses to score otherwise, and --check-split checks only that.

Exit status: 0 when every finding has a label, 3 when some have none, 2 when no tree was found, 1 when a
project's split is not the computed one.
Standard library only, plus nagle-lint itself (and tomli before Python 3.11, which nagle-lint needs too).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: nagle-lint depends on tomli there
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
LABELS = ("true", "false", "debatable")
PEERS = REPO_ROOT / "benchmarks" / "peers"


@dataclass
class Project:
    name: str
    repo: str
    commit: str
    language: str
    split: str
    labels: dict  # (path, line, rule) -> (label, reason)
    found_by: dict  # (path, line, rule) -> the tools that reported it when it was judged
    round: int = 1  # the labelling round, for the split

    def link(self, path: str, line: int) -> str:
        return f"https://github.com/{self.repo}/blob/{self.commit}/{path}#L{line}"


@dataclass
class Score:
    """What one tool reported on one project, matched to the labels."""
    files: int | None = None
    seconds: float = 0.0
    counts: Counter = field(default_factory=Counter)  # label or "unlabeled" -> findings
    unlabeled: list = field(default_factory=list)  # (path, line, rule, message)
    gone: list = field(default_factory=list)  # labelled (path, line, rule) no longer reported


def load_projects(path: Path) -> list[Project]:
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    projects = []
    for p in doc["project"]:
        labels, found_by = {}, {}
        for f in p.get("finding", []):
            if f["label"] not in LABELS:
                raise ValueError(f"{p['name']}: {f['path']}:{f['line']}: label {f['label']!r} is not one of {LABELS}")
            key = (f["path"], f["line"], f["rule"])
            labels[key] = (f["label"], f["reason"])
            found_by[key] = set(f.get("found_by", ["nagle-lint"]))
        projects.append(Project(p["name"], p["repo"], p["commit"], p["language"], p["split"], labels, found_by,
                                p.get("round", 1)))
    return projects


def deal(entries: list[tuple[str, str, int]]) -> dict[str, str]:
    """The deterministic split of (name, language, round) entries into "tune" and "holdout", dealt per
    labelling round so that a later round never changes an earlier one. Within a round and a language,
    names ordered by their SHA-256 alternate between the halves; round 1 starts with tune, a later round
    with the half that has fewer entries of that language in the earlier rounds (tune on a tie), so each
    language stays balanced to within one entry. Projects and documented bugs are both dealt this way."""
    result: dict[str, str] = {}
    for language in sorted({lang for _, lang, _ in entries}):
        counts = {"tune": 0, "holdout": 0}
        for rnd in sorted({r for _, lang, r in entries if lang == language}):
            names = sorted((name for name, lang, r in entries if lang == language and r == rnd),
                           key=lambda n: hashlib.sha256(n.encode()).hexdigest())
            first = "tune" if rnd == 1 or counts["tune"] <= counts["holdout"] else "holdout"
            second = "holdout" if first == "tune" else "tune"
            for n, name in enumerate(names):
                result[name] = first if n % 2 == 0 else second
                counts[result[name]] += 1
    return result


def split_of(projects: list[Project]) -> dict[str, str]:
    return deal([(p.name, p.language, p.round) for p in projects])


def split_differs(given: dict[str, str], expected: dict[str, str]) -> bool:
    """Print, and say, where a file's halves (name -> split) are not the computed ones."""
    wrong = [f"{name} (should be {expected[name]!r})" for name, split in given.items() if split != expected[name]]
    if wrong:
        print(f"split differs from the computed one: {', '.join(wrong)}", file=sys.stderr)
    return bool(wrong)


def relative(path: str) -> str:
    return Path(os.path.normpath(path)).as_posix()


def run(cmd: list[str], cwd: Path, ok_codes=(0,)) -> tuple[str, float]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok_codes:
        raise RuntimeError(f"{cmd[0]} exited {proc.returncode}: {proc.stderr.strip()[:300]}")
    return proc.stdout, elapsed


# Each tool gives (files or None, seconds, [(path, line, rule, message)]) for one tree, paths relative to it.

def nagle_lint(tree: Path, _exe: str | None):
    # --timeout 0: the time budget a file gets would cut big files on a busy machine, and a score
    # would then depend on the machine's load.
    out, seconds = run([sys.executable, "-m", "nagle_lint", "--format", "json", "--no-cache",
                        "--exit-zero", "--quiet", "--timeout", "0", "."], tree)
    doc = json.loads(out)
    return doc.get("files"), seconds, [(relative(f["path"]), f["line"], f["rule"], f["message"])
                                       for f in doc["findings"]]


def rule_of(check_id: str) -> str:
    """NGL001 from 'ngl001-c-split-write-then-read' (semgrep prefixes the config's folders with dots)."""
    return check_id.rsplit(".", 1)[-1].split("-", 1)[0].upper()


def semgrep(tree: Path, exe: str):
    # --x-ignore-semgrepignore-files: otherwise semgrep skips every test/ and tests/ folder by default.
    # --timeout 0: its per-rule timeout (5 s a file by default) drops rules on large files when the machine
    # is busy, so its findings would depend on the load (a true NODELAY line came and went between runs).
    out, seconds = run([exe, "scan", "--x-ignore-semgrepignore-files", "--timeout", "0",
                        "--config", str(PEERS / "semgrep.yml"), "--metrics=off", "--disable-version-check",
                        "--quiet", "--json", "."], tree, ok_codes=(0, 1))
    doc = json.loads(out)
    found = {(relative(r["path"]), r["start"]["line"], rule_of(r["check_id"])): r["extra"].get("message", "")
             for r in doc.get("results", [])}
    return None, seconds, [(*key, msg) for key, msg in found.items()]


def ast_grep(tree: Path, exe: str):
    out, seconds = run([exe, "scan", "-c", str(PEERS / "sgconfig.yml"), "--json=compact", "."], tree,
                       ok_codes=(0, 1))
    text = out.strip()
    rows = json.loads(text) if text.startswith("[") else [json.loads(x) for x in text.splitlines() if x.strip()]
    # ast-grep counts lines from 0.
    found = {(relative(r["file"]), r["range"]["start"]["line"] + 1, rule_of(r["ruleId"])): r.get("message", "")
             for r in rows}
    return None, seconds, [(*key, msg) for key, msg in found.items()]


TOOLS = {"nagle-lint": nagle_lint, "semgrep": semgrep, "ast-grep": ast_grep}


def score(project: Project, tree: Path, tool_name: str, exe: str | None) -> Score:
    files, seconds, findings = TOOLS[tool_name](tree, exe)
    s = Score(files=files, seconds=seconds)
    seen = set()
    for path, line, rule, message in sorted(findings):
        key = (path, line, rule)
        seen.add(key)
        if key in project.labels:
            s.counts[project.labels[key][0]] += 1
        else:
            s.counts["unlabeled"] += 1
            s.unlabeled.append((path, line, rule, message))
    s.gone = sorted(key for key, tools in project.found_by.items() if tool_name in tools and key not in seen)
    return s


def precision(c: Counter) -> tuple[str, str]:
    t, f, d = c["true"], c["false"], c["debatable"]
    strict = f"{t / (t + f + d):.2f}" if t + f + d else "-"
    decided = f"{t / (t + f):.2f}" if t + f else "-"
    return strict, decided


def table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def report(tool_name: str, scored: list[tuple[Project, Score]]) -> str:
    out = [f"## {tool_name}", ""]
    rows = []
    for p, s in scored:
        c = s.counts
        rows.append([p.name, p.language, p.split, p.commit[:10], "-" if s.files is None else s.files,
                     sum(c.values()), c["true"], c["false"], c["debatable"], c["unlabeled"], f"{s.seconds:.1f}"])
    out.append(table(["project", "language", "split", "commit", "files", "findings", "true", "false",
                      "debatable", "unlabeled", "time (s)"], rows))
    out.append("")
    groups = []
    for title, key in (("half", lambda p: p.split), ("language", lambda p: p.language)):
        for value in sorted({key(p) for p, _ in scored}):
            c = sum((s.counts for p, s in scored if key(p) == value), Counter())
            groups.append([f"{title}: {value}", sum(c.values()), c["true"], c["false"], c["debatable"],
                           c["unlabeled"], *precision(c)])
    total = sum((s.counts for _, s in scored), Counter())
    groups.append(["all", sum(total.values()), total["true"], total["false"], total["debatable"],
                   total["unlabeled"], *precision(total)])
    out.append(table(["group", "findings", "true", "false", "debatable", "unlabeled",
                      "true/(t+f+d)", "true/(t+f)"], groups))
    unlabeled = [(p, u) for p, s in scored for u in s.unlabeled]
    if unlabeled:
        out += ["", f"Findings with no label ({len(unlabeled)}): judge them and add them to projects.toml.", ""]
        out += [f"- {p.name} `{path}:{line}` {rule}: {message[:160]} {p.link(path, line)}"
                for p, (path, line, rule, message) in unlabeled]
    gone = [(p, g) for p, s in scored for g in s.gone]
    if gone:
        out += ["", f"Labelled findings no longer reported ({len(gone)}):", ""]
        out += [f"- {p.name} `{path}:{line}` {rule} (was {p.labels[(path, line, rule)][0]})"
                for p, (path, line, rule) in gone]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", help="folder holding one tree per project, named as in the file")
    parser.add_argument("--projects", default=str(HERE / "projects.toml"), help="the judged projects (default: %(default)s)")
    parser.add_argument("--only", action="append", metavar="NAME", help="score only this project (repeatable)")
    parser.add_argument("--half", choices=("tune", "holdout"), help="score only this half")
    parser.add_argument("--peer", action="append", default=[], metavar="TOOL=PATH",
                        help="also score a peer with the rules in benchmarks/peers: ast-grep=PATH or semgrep=PATH")
    parser.add_argument("--show-commands", action="store_true",
                        help="print git commands that create the trees under --root, then exit")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="lint N trees at a time (default: the number of cores, %(default)s)")
    parser.add_argument("--check-split", action="store_true",
                        help="only check that each project's split is the computed one")
    args = parser.parse_args(argv)

    projects = load_projects(Path(args.projects))
    if split_differs({p.name: p.split for p in projects}, split_of(projects)):
        return 1
    if args.check_split:
        print(f"{len(projects)} projects, split as computed")
        return 0
    if args.root is None:
        parser.error("--root is required")
    projects = [p for p in projects if (not args.only or p.name in args.only) and (not args.half or p.split == args.half)]
    if args.show_commands:
        for p in projects:
            dest = f"{args.root}/{p.name}"
            print(f"git clone --filter=blob:none https://github.com/{p.repo}.git {dest}"
                  f" && git -C {dest} checkout --quiet {p.commit}")
        return 0
    tools = [("nagle-lint", None)]
    for spec in args.peer:
        name, _, exe = spec.partition("=")
        if name not in TOOLS or name == "nagle-lint" or not exe:
            parser.error(f"--peer {spec!r}: expected ast-grep=PATH or semgrep=PATH")
        tools.append((name, exe))

    root = Path(args.root)
    present = [p for p in projects if (root / p.name).is_dir()]
    for p in projects:
        if p not in present:
            print(f"{p.name}: no tree at {root / p.name}", file=sys.stderr)
    if not present:
        print(f"no trees found under {root}; see --show-commands", file=sys.stderr)
        return 2
    any_unlabeled = False
    for name, exe in tools:
        # The tools run as child processes, so threads are enough to keep the cores busy.
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            scores = list(pool.map(lambda p: score(p, root / p.name, name, exe), present))
        scored = list(zip(present, scores))
        any_unlabeled |= any(s.unlabeled for _, s in scored)
        print(report(name, scored))
    return 3 if any_unlabeled else 0


if __name__ == "__main__":
    sys.exit(main())
