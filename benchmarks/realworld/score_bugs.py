#!/usr/bin/env python3
"""Score nagle-lint on documented Nagle bugs (bugs.toml), from local git mirrors.

It fetches nothing. --mirrors names a folder holding one git repository per project, named
owner+name (e.g. efficios+babeltrace for efficios/babeltrace). Each may be a bare git directory,
a checkout (with .git), or either of those under a repo/ subfolder:

    MIRRORS/efficios+babeltrace/            bare repository, or a checkout
    MIRRORS/efficios+babeltrace/repo/       the same, one level down
    MIRRORS/efficios+babeltrace/repo/.git

For each bug the tree at the buggy commit and at the fixed commit is exported (git archive | tar)
into a temporary folder and linted with `--format json --no-cache`, once at the default
confidence and once with `--min-confidence low`. An entry's `scope` says what is exported and
linted: "repo" (default) the whole tree, "dir" only the folder of `path` (for very large
repositories, so that cross-file facts from the rest of the project are not seen).

Scoring (tolerance of 2 lines either side):
- found: a finding of one of the entry's `rules` (default NGL001) in `path` at one of `lines`
  (the second sends) in the buggy version;
- fixed as expected: with expect_fixed = "clean", no NGL001/NGL003/NGL004 finding in the fixed
  file at `fixed_lines`; with expect_fixed = "NGL002", an NGL002 finding at `fixed_lines` (the
  TCP_NODELAY line) and no NGL001/NGL003/NGL004 at `fixed_split_lines` (the split that is still
  there, now behind NODELAY), when those are given.

It prints a Markdown table per half (tune, holdout) and recall and fixed-as-expected rates per
language and in all, at both confidences. Standard library only, plus nagle-lint itself (and tomli
before Python 3.11, which nagle-lint needs too).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
TOLERANCE = 2
STALL_RULES = ("NGL001", "NGL003", "NGL004")
LANGUAGES = ("Python", "Java", "C")
CONFIDENCES = ("default", "low")


@dataclass
class Bug:
    id: str
    language: str
    repo: str
    buggy_commit: str
    fixed_commit: str
    path: str
    lines: list[int]
    link: str
    reason: str
    split: str
    expect_fixed: str = "clean"
    rules: list[str] = field(default_factory=lambda: ["NGL001"])
    first_lines: list[int] = field(default_factory=list)
    read_lines: list[int] = field(default_factory=list)
    fixed_path: str = ""
    fixed_lines: list[int] = field(default_factory=list)
    fixed_split_lines: list[int] = field(default_factory=list)
    fix_kind: str = ""
    scope: str = "repo"

    def __post_init__(self) -> None:
        if not self.fixed_path:
            self.fixed_path = self.path


def load_bugs(path: Path) -> list[Bug]:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: nagle-lint depends on tomli there
        import tomli as tomllib

    with path.open("rb") as f:
        data = tomllib.load(f)
    return [Bug(**entry) for entry in data["bug"]]


def split_of(bugs: list[Bug]) -> dict[str, str]:
    """The deterministic split: within each language, entries ordered by the SHA-256 of their id
    alternate tune, holdout, tune, ... so each half gets half of every language."""
    result = {}
    for language in sorted({b.language for b in bugs}):
        ids = sorted((b.id for b in bugs if b.language == language),
                     key=lambda i: hashlib.sha256(i.encode()).hexdigest())
        for n, bug_id in enumerate(ids):
            result[bug_id] = "tune" if n % 2 == 0 else "holdout"
    return result


def near(line: int, targets: list[int], tolerance: int = TOLERANCE) -> bool:
    return any(abs(line - t) <= tolerance for t in targets)


def hits(findings: list[dict], path: str, lines: list[int], rules) -> list[dict]:
    """Findings of one of `rules` in file `path` at one of `lines` (with the tolerance)."""
    return [f for f in findings
            if f["rule"] in rules and f["path"] == path and near(f["line"], lines)]


def found(bug: Bug, findings: list[dict]) -> bool:
    return bool(hits(findings, bug.path, bug.lines, bug.rules))


def fixed_as_expected(bug: Bug, findings: list[dict]) -> bool:
    if bug.expect_fixed == "clean":
        return not hits(findings, bug.fixed_path, bug.fixed_lines, STALL_RULES)
    if bug.expect_fixed == "NGL002":
        band_aid = hits(findings, bug.fixed_path, bug.fixed_lines, ("NGL002",))
        stall = hits(findings, bug.fixed_path, bug.fixed_split_lines, STALL_RULES)
        return bool(band_aid) and not stall
    raise ValueError(f"{bug.id}: unknown expect_fixed {bug.expect_fixed!r}")


def git_dir(mirrors: Path, repo: str) -> Path | None:
    base = mirrors / repo.replace("/", "+")
    for candidate in (base / "repo" / ".git", base / "repo", base / ".git", base):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def export(gitdir: Path, commit: str, dest: Path, subdir: str | None) -> None:
    """Write the tree of `commit` (or only `subdir` of it) into dest."""
    cmd = ["git", "--git-dir", str(gitdir), "archive", "--format=tar", commit]
    if subdir:
        cmd.append(subdir)
    archive = subprocess.run(cmd, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)


def lint(root: Path, target: str, low: bool) -> list[dict]:
    """Findings of nagle-lint run in `root` on the relative path `target`, paths relative to it."""
    cmd = [sys.executable, "-m", "nagle_lint", "--format", "json", "--no-cache", "--exit-zero",
           "--quiet"]
    if low:
        cmd += ["--min-confidence", "low"]
    cmd.append(target)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"nagle-lint exited {proc.returncode}: {proc.stderr.strip()[:300]}")
    findings = json.loads(proc.stdout)["findings"]
    for f in findings:
        f["path"] = os.path.normpath(os.path.relpath(os.path.join(root, f["path"]), root))
    return findings


def run_version(gitdir: Path, commit: str, bug: Bug, path: str) -> dict[str, list[dict]]:
    subdir = str(Path(path).parent) if bug.scope == "dir" else None
    with tempfile.TemporaryDirectory(prefix="nagle-bugs-") as tmp:
        root = Path(tmp)
        export(gitdir, commit, root, subdir)
        target = subdir or "."
        return {c: lint(root, target, low=(c == "low")) for c in CONFIDENCES}


def score(bug: Bug, mirrors: Path) -> dict | None:
    gitdir = git_dir(mirrors, bug.repo)
    if gitdir is None:
        return None
    buggy = run_version(gitdir, bug.buggy_commit, bug, bug.path)
    fixed = run_version(gitdir, bug.fixed_commit, bug, bug.fixed_path)
    return {c: (found(bug, buggy[c]), fixed_as_expected(bug, fixed[c])) for c in CONFIDENCES}


def mark(ok: bool) -> str:
    return "yes" if ok else "no"


def rate(n: int, d: int) -> str:
    return f"{n}/{d} ({n / d:.2f})" if d else "-"


def report(bugs: list[Bug], results: dict[str, dict | None], half: str) -> None:
    chosen = [b for b in bugs if b.split == half]
    print(f"\n## {half} ({len(chosen)} bugs)\n")
    print("| id | language | found (default) | found (low) | fixed as expected (default) |"
          " fixed as expected (low) | expect fixed |")
    print("|---|---|---|---|---|---|---|")
    for b in chosen:
        r = results.get(b.id)
        if r is None:
            print(f"| {b.id} | {b.language} | missing mirror | | | | {b.expect_fixed} |")
            continue
        print(f"| {b.id} | {b.language} | {mark(r['default'][0])} | {mark(r['low'][0])} |"
              f" {mark(r['default'][1])} | {mark(r['low'][1])} | {b.expect_fixed} |")
    print("\n| language | bugs | recall (default) | recall (low) | fixed ok (default) |"
          " fixed ok (low) |")
    print("|---|---|---|---|---|---|")
    for language in (*LANGUAGES, "all"):
        scored = [results[b.id] for b in chosen
                  if results.get(b.id) and language in (b.language, "all")]
        cells = []
        for index in (0, 1):
            for c in CONFIDENCES:
                cells.append(rate(sum(r[c][index] for r in scored), len(scored)))
        print(f"| {language} | {len(scored)} | {cells[0]} | {cells[1]} | {cells[2]} |"
              f" {cells[3]} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, help="folder of git mirrors named owner+name")
    parser.add_argument("--bugs", type=Path, default=HERE / "bugs.toml")
    parser.add_argument("--half", choices=("tune", "holdout", "both"), default="both")
    parser.add_argument("--only", help="comma-separated ids to score")
    parser.add_argument("--check-split", action="store_true",
                        help="only check that each entry's split is the deterministic one")
    args = parser.parse_args(argv)
    bugs = load_bugs(args.bugs)
    expected = split_of(bugs)
    wrong = [f"{b.id} (should be {expected[b.id]!r})" for b in bugs if b.split != expected[b.id]]
    if wrong:
        print(f"split differs from the deterministic one: {', '.join(wrong)}", file=sys.stderr)
        return 1
    if args.check_split:
        print(f"{len(bugs)} entries, split as computed")
        return 0
    if args.mirrors is None:
        parser.error("--mirrors is required")
    if args.only:
        keep = set(args.only.split(","))
        bugs = [b for b in bugs if b.id in keep]
    halves = ("tune", "holdout") if args.half == "both" else (args.half,)
    bugs = [b for b in bugs if b.split in halves]
    results = {}
    for b in bugs:
        print(f"scoring {b.id} ...", file=sys.stderr)
        results[b.id] = score(b, args.mirrors)
    for half in halves:
        report(bugs, results, half)
    return 0


if __name__ == "__main__":
    sys.exit(main())
