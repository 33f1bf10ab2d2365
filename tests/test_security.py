"""A tree being linted is untrusted input (the Action lints a pull request's
checkout): nothing in it may make nagle-lint write outside it, or replay a
result it did not compute.  Links planted where the cache, the report or
the baseline go; a cache committed to the repository; a file changed with
its size and time kept; git revisions and file names that look like
options; linked folders."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from nagle_lint.cli import main
from test_cache import SPLIT

pytestmark = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="POSIX links and modes")

ROOT = Path(__file__).resolve().parent.parent
CACHE = ".nagle_lint_cache"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]


def lint(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(folder: Path) -> dict:
    """Every name under `folder` with its kind and content, links not followed."""
    out = {}
    for path in sorted(folder.rglob("*")):
        st = path.lstat()
        out[str(path.relative_to(folder))] = (stat.S_IFMT(st.st_mode), path.read_bytes() if path.is_file() and
                                              not path.is_symlink() else os.readlink(path) if path.is_symlink() else None)
    return out


@pytest.fixture
def setup(tmp_path, monkeypatch):
    """A tree to lint (the current folder) and a folder outside it with a file."""
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    (tree / "app.py").write_bytes(SPLIT)
    (outside / "victim").write_text("precious\n")
    monkeypatch.chdir(tree)
    monkeypatch.delenv("NAGLE_LINT_CACHE_DIR", raising=False)
    return tree, outside


def two_runs_change_nothing_outside(capsys, outside, *argv):
    """Two runs: the finding is printed each time, with one warning that the
    cache is ignored, and nothing outside the tree changes."""
    before = snapshot(outside)
    for _ in range(2):
        code, out, err = lint(capsys, *argv, "app.py")
        assert code == 1 and "app.py:7:5: NGL001" in out, (out, err)
        assert err.count("is ignored") == 1, err
    assert snapshot(outside) == before
    return err


def test_a_cache_folder_that_is_a_link_is_not_followed(setup, capsys):
    tree, outside = setup
    os.symlink(outside, tree / CACHE)
    err = two_runs_change_nothing_outside(capsys, outside)
    assert "symbolic link or not a folder" in err


def test_a_gitignore_link_in_a_cache_folder_is_not_written_through(setup, capsys):
    tree, outside = setup
    (tree / CACHE).mkdir(mode=0o700)
    os.symlink(outside / "victim", tree / CACHE / ".gitignore")
    os.symlink(outside / "created", tree / CACHE / "CACHEDIR.TAG")  # dangling: would be created
    two_runs_change_nothing_outside(capsys, outside)
    assert not (outside / "created").exists()


@pytest.mark.parametrize("name", ["CACHEDIR.TAG", ".gitignore", "entry.json", "entry.out"])
def test_links_in_place_of_the_caches_own_files_are_not_followed(setup, capsys, name):
    """The cache made by a first run, then one of its files turned into a
    link to a file outside (an entry's own name included)."""
    tree, outside = setup
    lint(capsys, "app.py")
    folder = tree / CACHE
    if name.startswith("entry"):
        [name] = [n for n in os.listdir(folder) if n.endswith(name[5:])]
    (folder / name).unlink()
    os.symlink(outside / "victim", folder / name)
    two_runs_change_nothing_outside(capsys, outside)


def test_a_cache_committed_to_the_repository_is_not_replayed(setup, capsys):
    tree, _ = setup
    subprocess.run([*GIT, "init", "-q"], cwd=tree, check=True)
    lint(capsys, "app.py")
    # A forged entry, as a pull request would commit it: "no findings".
    for entry in (tree / CACHE).glob("*.out"):
        entry.write_text("0 0\n")
    subprocess.run([*GIT, "add", "-f", "-A"], cwd=tree, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "cache"], cwd=tree, check=True)
    code, out, err = lint(capsys, "app.py")
    assert code == 1 and "NGL001" in out
    assert "git tracks files in it" in err
    assert lint(capsys, "app.py")[:2] == (code, out)  # every run
    # Not tracked, the folder is the user's own cache again.
    subprocess.run([*GIT, "rm", "-r", "-q", "--cached", CACHE], cwd=tree, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "no cache"], cwd=tree, check=True)
    lint(capsys, "clean")
    for _ in range(2):
        code, out, err = lint(capsys, "app.py")
        assert code == 1 and "NGL001" in out and "ignored" not in err


def test_a_file_changed_with_its_size_and_times_kept_is_linted_again(setup, capsys):
    tree, _ = setup
    app = tree / "app.py"
    assert lint(capsys, "app.py")[0] == 1
    st = app.stat()
    clean = SPLIT.replace(b"sock.recv(100)", b"sock.close(  )")  # no read: no stall; same size
    assert len(clean) == len(SPLIT)
    with open(app, "r+b") as fh:  # the same inode
        fh.write(clean)
    os.utime(app, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (app.stat().st_size, app.stat().st_mtime_ns, app.stat().st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)
    code, out, _ = lint(capsys, "app.py")
    assert (code, out) == (0, "")


@pytest.mark.parametrize("mode", [0o777, 0o770])
def test_a_cache_folder_others_can_write_is_ignored(setup, capsys, mode):
    tree, outside = setup
    lint(capsys, "app.py")
    os.chmod(tree / CACHE, mode)
    err = two_runs_change_nothing_outside(capsys, outside)
    assert "others can write to it" in err


def test_a_folder_not_made_by_nagle_lint_is_left_alone(setup, capsys):
    tree, outside = setup
    (tree / CACHE).mkdir()
    (tree / CACHE / "notes.txt").write_text("mine\n")
    err = two_runs_change_nothing_outside(capsys, outside)
    assert "not made by nagle-lint" in err
    assert os.listdir(tree / CACHE) == ["notes.txt"]


def test_cache_dir_and_its_variable_follow_the_same_rules(setup, capsys, monkeypatch, tmp_path):
    tree, outside = setup
    os.symlink(outside, tree / "elsewhere")
    two_runs_change_nothing_outside(capsys, outside, "--cache-dir", "elsewhere")
    monkeypatch.setenv("NAGLE_LINT_CACHE_DIR", str(tree / "elsewhere"))
    two_runs_change_nothing_outside(capsys, outside)
    # A real folder of one's own is used: the cache goes there, not into the tree.
    monkeypatch.setenv("NAGLE_LINT_CACHE_DIR", str(tmp_path / "mine"))
    assert lint(capsys, "app.py")[0] == 1
    assert (tmp_path / "mine" / "CACHEDIR.TAG").is_file() and not (tree / CACHE).exists()
    assert stat.S_IMODE((tmp_path / "mine").stat().st_mode) == 0o700


def test_the_output_file_and_the_baseline_are_not_written_through_links(setup, capsys):
    tree, outside = setup
    before = snapshot(outside)
    os.symlink(outside / "victim", tree / "nagle-lint.sarif")
    os.symlink(outside / "new.json", tree / "baseline.json")  # dangling: would be created
    code, _, err = lint(capsys, "--format", "sarif", "--output-file", "nagle-lint.sarif", "app.py")
    assert code == 2 and "symbolic link to a file" in err
    code, _, err = lint(capsys, "--write-baseline", "baseline.json", "app.py")
    assert code == 2 and "cannot write the baseline" in err
    assert snapshot(outside) == before
    # A real file is written as before, and a link to a device is written through.
    assert lint(capsys, "-o", "report.txt", "app.py")[0] == 1 and "NGL001" in (tree / "report.txt").read_text()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "nagle_lint", "--no-cache", "-o", "/dev/stdout", "app.py"],
                          cwd=tree, capture_output=True, text=True, env=env, check=False)
    assert proc.returncode == 1 and "app.py:7:5: NGL001" in proc.stdout


def test_a_walk_does_not_leave_the_tree_through_links(setup, capsys):
    tree, outside = setup
    (outside / "secret.py").write_bytes(SPLIT)
    (outside / "pkg").mkdir()
    (outside / "pkg" / "more.py").write_bytes(SPLIT)
    os.symlink(outside / "secret.py", tree / "leak.py")
    os.symlink(outside / "pkg", tree / "linked")
    code, out, _ = lint(capsys, ".")
    assert [line.split(":")[0] for line in out.splitlines()] == ["./app.py"]


def test_git_never_takes_a_revision_or_a_file_name_as_an_option(tmp_path, capsys, monkeypatch):
    """--diff-base values that start with '-' are refused; file names with a
    leading dash or a newline are read back from git as they are."""
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run([*GIT, "init", "-q"], cwd=repo, check=True)
    (repo / "keep.py").write_text("x = 1\n")
    subprocess.run([*GIT, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "base"], cwd=repo, check=True)
    odd = ["-rf.py", "--output=x.py", "new\nline.py"]
    for name in odd:
        (repo / name).write_bytes(SPLIT)
    subprocess.run([*GIT, "add", "--", *odd], cwd=repo, check=True)
    monkeypatch.chdir(repo)
    for ref in ("--output=pwned", "-p", "--exec=touch pwned"):
        code, _, err = lint(capsys, "--no-cache", f"--diff-base={ref}", ".")
        assert code == 2 and "not a git revision" in err
    assert not list(repo.glob("pwned*"))
    code, out, _ = lint(capsys, "--no-cache", "--format", "json", "--diff-base", "HEAD", ".")
    import json

    assert sorted(f["path"] for f in json.loads(out)["findings"]) == sorted(f"./{n}" for n in odd)
