"""Which files a run lints: what git ignores is left out (in a git work
tree), exclude patterns follow gitignore's rules, and --show-files /
--show-settings say what a run would lint and with which settings."""

from __future__ import annotations

import subprocess

import pytest

from nagle_lint.cli import main

FILES = ["src/a.py", "src/sub/x.py", "gen/g.py", "src/x.tmp.py", "src/keep.tmp.py", "src/local.py",
         "src/sub/deep.c", "private/p.py"]


def lint(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def shown(capsys, *argv) -> list[str]:
    code, out, err = lint(capsys, "--show-files", *argv)
    assert code == 0, err
    return sorted(line.removeprefix("./") for line in out.splitlines())


@pytest.fixture
def tree(tmp_path, monkeypatch):
    for name in FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    (tmp_path / ".gitignore").write_text("gen/\n*.tmp.py\n!keep.tmp.py\n")
    (tmp_path / "src" / ".gitignore").write_text("local.py\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_outside_a_git_work_tree_gitignore_files_are_not_read(tree, capsys):
    assert shown(capsys, ".") == sorted(FILES)


def test_what_git_ignores_is_not_linted(tree, capsys):
    subprocess.run(["git", "init", "-q"], cwd=tree, check=True)
    (tree / ".git" / "info").mkdir(exist_ok=True)
    (tree / ".git" / "info" / "exclude").write_text("private/\n")
    expected = ["src/a.py", "src/keep.tmp.py", "src/sub/deep.c", "src/sub/x.py"]
    assert shown(capsys, ".") == expected
    # The same from a subfolder: the .gitignore files above it still hold.
    assert shown(capsys, "src") == expected
    # Named on the command line, a file is linted all the same.
    assert shown(capsys, "src/local.py") == ["src/local.py"]
    # Turned off in the configuration.
    (tree / ".nagle-lint.toml").write_text("respect-gitignore = false\n")
    assert shown(capsys, ".") == sorted(FILES)


def test_exclude_patterns_follow_gitignore_rules(tree, capsys):
    """`src/*.py` is anchored to the configuration's folder and does not
    reach into src/sub; a pattern without a slash matches at any depth; `!`
    takes a file back."""
    (tree / "pyproject.toml").write_text('[tool.nagle-lint]\nexclude = ["src/*.py", "deep.c", "!src/a.py"]\n')
    assert shown(capsys, ".") == ["gen/g.py", "private/p.py", "src/a.py", "src/sub/x.py"]
    assert shown(capsys, "src") == ["src/a.py", "src/sub/x.py"]
    # A file named on the command line is excluded with --force-exclude as in a walk.
    assert shown(capsys, "--force-exclude", "src/local.py", "src/sub/x.py", "src/sub/deep.c") == ["src/sub/x.py"]
    (tree / "pyproject.toml").write_text('[tool.nagle-lint]\nexclude = ["src/"]\n')
    assert shown(capsys, "--force-exclude", "src/sub/x.py", "gen/g.py") == ["gen/g.py"]


def test_show_settings_prints_the_settings_in_force(tree, capsys):
    code, out, _ = lint(capsys, "--show-settings")
    assert code == 0 and out.startswith("# default settings (no configuration file)\n")
    assert 'min-confidence = "medium"\n' in out and "respect-gitignore = true\n" in out
    (tree / "pyproject.toml").write_text('[tool.nagle-lint]\nselect = ["NGL001"]\nexclude = ["gen"]\n')
    code, out, _ = lint(capsys, "--show-settings", "--min-confidence", "high", "--exclude", "private")
    assert code == 0 and out.splitlines()[0] == f"# settings from {tree / 'pyproject.toml'}"
    assert 'select = ["NGL001"]\n' in out and 'exclude = ["gen"]\n' in out
    assert '# and --exclude (from the current folder): ["private"]\n' in out
    assert 'min-confidence = "high"\n' in out
