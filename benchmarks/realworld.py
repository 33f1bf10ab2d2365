#!/usr/bin/env python3
"""Run nagle-lint over checkouts of real open-source projects and print a Markdown table.

The script never downloads anything. Put one checkout per project in a folder,
named as in PROJECTS below, at the commit listed there:

    python benchmarks/realworld.py --show-commands     # prints the git commands
    python benchmarks/realworld.py --root CHECKOUTS    # lints what is present

For each project found under --root it runs nagle-lint twice (default settings,
then --min-confidence low) and prints: project, language, commit, files linted,
findings at default settings, findings at low confidence, and the time taken by
the default run. Projects that are missing are listed as such. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

# (folder name, GitHub repository, commit, language)
PROJECTS = [
    ("redis", "redis/redis", "4f8cdc2a1ea53e42955af758aabffee67cb455dd", "C"),
    ("memcached", "memcached/memcached", "2d51e364799bc9698bd4b11728ea978cea12da6e", "C"),
    ("nginx", "nginx/nginx", "3f6f7824d4e2eb1ac37dec76683d525ac0ff521c", "C"),
    ("curl", "curl/curl", "5c61e168698a72b87437d58ed728bcdea6d5db42", "C"),
    ("jedis", "redis/jedis", "9bcb5c602b0a21b9106501d8b6c0b148c27d73dc", "Java"),
    ("nanohttpd", "NanoHttpd/nanohttpd", "efb2ebf85a2b06f7c508aba9eaad5377e3a01e81", "Java"),
    ("commons-net", "apache/commons-net", "c66d035adac4ebfdf41c067e1cfaa13bb6f345ce", "Java"),
    ("redis-py", "redis/redis-py", "34817ce2a2accc893a81180fe737e0c4f5ac6b0c", "Python"),
    ("gunicorn", "benoitc/gunicorn", "65ac1a3a4c0aa00960968c720d6e6bd2ac32f1b9", "Python"),
    ("paramiko", "paramiko/paramiko", "8697158113a3eab25ed1d1d541ebe2cad10169a7", "Python"),
]

REPO_ROOT = Path(__file__).resolve().parent.parent


def show_commands(root: str) -> None:
    print(f"mkdir -p {root}")
    for name, repo, commit, _ in PROJECTS:
        dest = f"{root}/{name}"
        print(f"git clone --filter=blob:none https://github.com/{repo}.git {dest}"
              f" && git -C {dest} checkout --quiet {commit}")


def checked_out_commit(path: Path) -> str | None:
    """HEAD of a git checkout, or None when the folder is not a git work tree."""
    if not (path / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"],
                             capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip()


def lint(path: Path, low: bool) -> tuple[dict, float]:
    """Run nagle-lint on one folder; return its JSON report and the seconds it took."""
    cmd = [sys.executable, "-m", "nagle_lint", "--format", "json", "--exit-zero", "--quiet"]
    if low:
        cmd += ["--min-confidence", "low"]
    cmd.append(str(path))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"nagle-lint exited {proc.returncode}: {proc.stderr.strip()[:300]}")
    return json.loads(proc.stdout), elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", help="folder holding one checkout per project")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="lint only this project (repeatable)")
    parser.add_argument("--show-commands", action="store_true",
                        help="print the git commands that create the checkouts, then exit")
    args = parser.parse_args(argv)

    if args.show_commands:
        show_commands(args.root or "checkouts")
        return 0
    if not args.root:
        parser.error("--root is required (see --show-commands for how to get the checkouts)")
    root = Path(args.root)

    rows = []
    linted = 0
    for name, repo, commit, language in PROJECTS:
        if args.only and name not in args.only:
            continue
        path = root / name
        short = commit[:10]
        if not path.is_dir():
            rows.append((name, language, short, "not found", "", "", ""))
            continue
        head = checked_out_commit(path)
        if head is not None and head != commit:
            short += f" (checkout at {head[:10]})"
        try:
            default, seconds = lint(path, low=False)
            low, _ = lint(path, low=True)
        except (RuntimeError, ValueError) as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            rows.append((name, language, short, "error", "", "", ""))
            continue
        linted += 1
        rows.append((name, language, short, str(default["files"]),
                     str(len(default["findings"])), str(len(low["findings"])),
                     f"{seconds:.1f}"))

    header = ("project", "language", "commit", "files", "findings (default)",
              "findings (low)", "time (s)")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(" --- " for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if linted == 0:
        print(f"no checkouts found under {root}; run with --show-commands", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
