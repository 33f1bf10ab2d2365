#!/usr/bin/env python3
"""Score nagle-lint on documented Nagle bugs (bugs.toml), from local git mirrors.

It fetches nothing. --mirrors names a folder holding one git repository per project, named
owner+name (e.g. efficios+babeltrace for efficios/babeltrace). Each may be a bare git directory,
a checkout (with .git), or either of those under a repo/ subfolder:

    MIRRORS/efficios+babeltrace/            bare repository, or a checkout
    MIRRORS/efficios+babeltrace/repo/       the same, one level down
    MIRRORS/efficios+babeltrace/repo/.git

For each bug the tree at the buggy commit and at the fixed commit is exported (git archive | tar)
into a temporary folder and linted with `--format json --no-cache --timeout 0`, once at the default
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
language and in all, at both confidences. --peer ast-grep=PATH / --peer semgrep=PATH also runs a peer
with the rules in benchmarks/peers on the same trees and scores it the same way (one confidence).

--check-refs lints nothing: it checks that every entry's commits are in its mirror, that `path` is
in the buggy commit and `fixed_path` in the fixed one, and that every labelled line is within its
file (-v prints the labelled lines). --check-split checks the split only.

Standard library only, plus nagle-lint itself (and tomli before Python 3.11, which nagle-lint needs
too).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
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
    round: int = 1

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
    """The deterministic split (score_projects.deal, the rule the whole projects follow too): within a
    labelling round and a language, ids ordered by their SHA-256 alternate between the halves."""
    return projects_module().deal([(b.id, b.language, b.round) for b in bugs])


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
    archive = subprocess.run(cmd, capture_output=True)
    if archive.returncode == 0:
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    else:
        export_present_blobs(gitdir, commit, dest, subdir)


def export_present_blobs(gitdir: Path, commit: str, dest: Path, subdir: str | None) -> None:
    """Write the files of `commit` one by one, leaving out those whose contents the mirror does
    not hold (snapshots may leave out their largest files, which git archive refuses)."""
    cmd = ["git", "--git-dir", str(gitdir), "ls-tree", "-r", "-z", commit]
    if subdir:
        cmd += ["--", subdir]
    listing = subprocess.run(cmd, capture_output=True, check=True).stdout.decode()
    entries = []  # (object id, path) of regular files
    for item in filter(None, listing.split("\0")):
        meta, path = item.split("\t", 1)
        mode, kind, oid = meta.split()
        if kind == "blob" and mode in ("100644", "100755"):
            entries.append((oid, path))
    batch = subprocess.run(["git", "--git-dir", str(gitdir), "cat-file", "--batch"],
                           input="".join(f"{oid}\n" for oid, _ in entries).encode(),
                           capture_output=True, check=True).stdout
    pos = 0
    for _oid, path in entries:
        end = batch.index(b"\n", pos)
        header = batch[pos:end].split()
        pos = end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(batch[pos:pos + size])
        pos += size + 1  # the contents are followed by a newline


def lint(root: Path, target: str, low: bool) -> list[dict]:
    """Findings of nagle-lint run in `root` on the relative path `target`, paths relative to it."""
    # --timeout 0: see score_projects.py (a score must not depend on the machine's load).
    cmd = [sys.executable, "-m", "nagle_lint", "--format", "json", "--no-cache", "--exit-zero",
           "--quiet", "--timeout", "0"]
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


@functools.cache
def projects_module():
    """score_projects.py, which holds what both benchmarks share: the split and the peers' runners."""
    spec = importlib.util.spec_from_file_location("score_projects", HERE / "score_projects.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["score_projects"] = module  # its dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


def peer_tool(name: str):
    """The function of score_projects.py that runs peer `name` on a tree (the same rules and output
    parsing for both benchmarks)."""
    return projects_module().TOOLS[name]


def peer_lint(root: Path, name: str, exe: str) -> list[dict]:
    """A peer's findings on the tree in `root`, in nagle-lint's JSON form (rule, path, line)."""
    _files, _seconds, rows = peer_tool(name)(root, exe)
    return [{"rule": rule, "path": os.path.normpath(path), "line": line}
            for path, line, rule, _message in rows]


def run_version(gitdir: Path, commit: str, bug: Bug, path: str,
                peers: dict[str, str] | None = None) -> dict[str, list[dict]]:
    """Findings at `commit`: one list per confidence of nagle-lint, and one per peer."""
    subdir = str(Path(path).parent) if bug.scope == "dir" else None
    with tempfile.TemporaryDirectory(prefix="nagle-bugs-") as tmp:
        root = Path(tmp)
        export(gitdir, commit, root, subdir)
        target = subdir or "."
        results = {c: lint(root, target, low=(c == "low")) for c in CONFIDENCES}
        for name, exe in (peers or {}).items():
            results[name] = peer_lint(root, name, exe)
        return results


def score(bug: Bug, mirrors: Path, peers: dict[str, str] | None = None) -> dict | None:
    """(found, fixed as expected) per column (the confidences, then the peers), or None when the
    repository is not among the mirrors."""
    gitdir = git_dir(mirrors, bug.repo)
    if gitdir is None:
        return None
    buggy = run_version(gitdir, bug.buggy_commit, bug, bug.path, peers)
    fixed = run_version(gitdir, bug.fixed_commit, bug, bug.fixed_path, peers)
    return {c: (found(bug, buggy[c]), fixed_as_expected(bug, fixed[c])) for c in buggy}


def git(gitdir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "--git-dir", str(gitdir), *args], capture_output=True)


def check_refs(bug: Bug, mirrors: Path, verbose: bool = False) -> list[str]:
    """What is wrong with the entry's references (commits, paths, line numbers); lints nothing."""
    gitdir = git_dir(mirrors, bug.repo)
    if gitdir is None:
        return [f"no mirror of {bug.repo}"]
    problems = []
    for commit in (bug.buggy_commit, bug.fixed_commit):
        if git(gitdir, "cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
            problems.append(f"commit {commit} is not in the mirror")
    if problems:
        return problems
    if git(gitdir, "merge-base", "--is-ancestor", bug.buggy_commit, bug.fixed_commit).returncode:
        problems.append(f"buggy commit {bug.buggy_commit[:10]} is not an ancestor of the fixed one")
    sites = ((bug.buggy_commit, bug.path, {"lines": bug.lines, "first_lines": bug.first_lines,
                                           "read_lines": bug.read_lines}),
             (bug.fixed_commit, bug.fixed_path, {"fixed_lines": bug.fixed_lines,
                                                 "fixed_split_lines": bug.fixed_split_lines}))
    for commit, path, fields in sites:
        shown = git(gitdir, "show", f"{commit}:{path}")
        if shown.returncode != 0:
            problems.append(f"{path} is not in commit {commit[:10]}")
            continue
        text = shown.stdout.decode("utf-8", "replace").splitlines()
        for name, numbers in fields.items():
            for n in numbers:
                if not 1 <= n <= len(text):
                    problems.append(f"{name} {n} is outside {path} ({len(text)} lines)"
                                    f" at {commit[:10]}")
                elif verbose:
                    print(f"  {bug.id} {name} {path}:{n}: {text[n - 1].strip()}")
    return problems


def mark(ok: bool) -> str:
    return "yes" if ok else "no"


def rate(n: int, d: int) -> str:
    return f"{n}/{d} ({n / d:.2f})" if d else "-"


def report(bugs: list[Bug], results: dict[str, dict | None], half: str,
           columns: tuple[str, ...] = CONFIDENCES) -> None:
    """One table of the half's entries, then the rates per language; a column per confidence of
    nagle-lint ("default", "low") and per peer."""
    chosen = [b for b in bugs if b.split == half]
    print(f"\n## {half} ({len(chosen)} bugs)\n")
    heads = [f"found ({c})" for c in columns] + [f"fixed as expected ({c})" for c in columns]
    print("| id | language | " + " | ".join(heads) + " | expect fixed |")
    print("|---|---|" + "---|" * len(heads) + "---|")
    for b in chosen:
        r = results.get(b.id)
        if r is None:
            cells = ["missing mirror"] + [""] * (len(heads) - 1)
        else:
            cells = [mark(r[c][index]) for index in (0, 1) for c in columns]
        print(f"| {b.id} | {b.language} | " + " | ".join(cells) + f" | {b.expect_fixed} |")
    heads = [f"recall ({c})" for c in columns] + [f"fixed ok ({c})" for c in columns]
    print("\n| language | bugs | " + " | ".join(heads) + " |")
    print("|---|---|" + "---|" * len(heads))
    for language in (*LANGUAGES, "all"):
        scored = [results[b.id] for b in chosen
                  if results.get(b.id) and language in (b.language, "all")]
        cells = [rate(sum(r[c][index] for r in scored), len(scored))
                 for index in (0, 1) for c in columns]
        print(f"| {language} | {len(scored)} | " + " | ".join(cells) + " |")


PEERS = ("ast-grep", "semgrep")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, help="folder of git mirrors named owner+name")
    parser.add_argument("--bugs", type=Path, default=HERE / "bugs.toml")
    parser.add_argument("--half", choices=("tune", "holdout", "both"), default="both")
    parser.add_argument("--only", help="comma-separated ids to score")
    parser.add_argument("--peer", action="append", default=[], metavar="TOOL=PATH",
                        help="also score a peer with the rules in benchmarks/peers:"
                             " ast-grep=PATH or semgrep=PATH")
    parser.add_argument("--check-split", action="store_true",
                        help="only check that each entry's split is the deterministic one")
    parser.add_argument("--check-refs", action="store_true",
                        help="only check every entry's commits, paths and line numbers in the"
                             " mirrors (lints nothing)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="with --check-refs: print every labelled line")
    args = parser.parse_args(argv)
    bugs = load_bugs(args.bugs)
    if projects_module().split_differs({b.id: b.split for b in bugs}, split_of(bugs)):
        return 1
    if args.check_split:
        print(f"{len(bugs)} entries, split as computed")
        return 0
    peers = {}
    for spec in args.peer:
        name, _, exe = spec.partition("=")
        if name not in PEERS or not exe:
            parser.error(f"--peer {spec!r}: expected ast-grep=PATH or semgrep=PATH")
        peers[name] = exe
    if args.mirrors is None:
        parser.error("--mirrors is required")
    if args.only:
        keep = set(args.only.split(","))
        bugs = [b for b in bugs if b.id in keep]
    if args.check_refs:
        bad = 0
        for b in bugs:
            problems = check_refs(b, args.mirrors, args.verbose)
            bad += bool(problems)
            for problem in problems:
                print(f"{b.id}: {problem}")
        print(f"{len(bugs)} entries checked, {bad} with problems")
        return 1 if bad else 0
    halves = ("tune", "holdout") if args.half == "both" else (args.half,)
    bugs = [b for b in bugs if b.split in halves]
    results = {}
    for b in bugs:
        print(f"scoring {b.id} ...", file=sys.stderr)
        results[b.id] = score(b, args.mirrors, peers)
    for half in halves:
        report(bugs, results, half, (*CONFIDENCES, *peers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
