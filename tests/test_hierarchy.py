"""Each file takes the settings of the nearest configuration file above it, as
ruff's hierarchical configuration does: that file's own (the files above are
not merged in), its patterns written from its folder, the command line's
settings on top, and `--config` for every file instead."""

from __future__ import annotations

import pytest

from nagle_lint.config import Resolver
from nagle_lint.runner import PARALLEL_THRESHOLD, run

from test_cli import LOW_C, NODELAY_NOTE, SPLIT, run as run_cli, write
from test_config import dotted, pyproject, reported

MEDIUM_C = LOW_C  # an `int fd` of unknown origin: NGL001 at low confidence


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """proj/ (only NGL001) with src/ under it, and sub/ with its own
    .nagle-lint.toml (NGL001 and NGL002, its gen/ excluded)."""
    proj = tmp_path / "proj"
    for folder in ("src", "sub", "sub/gen"):
        write(proj, f"{folder}/split.py", SPLIT)
        write(proj, f"{folder}/nodelay.py", NODELAY_NOTE)
    pyproject(proj, 'select = ["NGL001"]\n')
    dotted(proj / "sub", 'select = ["NGL001", "NGL002"]\nexclude = ["/gen/"]\n')
    monkeypatch.chdir(proj)
    return proj


EXPECTED = ["src/split.py:NGL001", "sub/nodelay.py:NGL002", "sub/split.py:NGL001"]


def test_every_file_takes_its_nearest_configuration_whatever_the_order_of_the_paths(capsys, tree):
    assert reported(capsys, "--no-cache", "sub", "src") == (1, EXPECTED)
    assert reported(capsys, "--no-cache", "src", "sub") == (1, EXPECTED)
    assert reported(capsys, "--no-cache", ".") == (1, EXPECTED)
    assert reported(capsys, "--no-cache", "sub/nodelay.py", "src/nodelay.py") == (0, ["sub/nodelay.py:NGL002"])


def test_the_cached_result_follows_each_files_configuration(capsys, tree):
    """The result cache's key holds each file's settings: the same files run
    in another order, or with a nested configuration changed, are not
    answered with a stored result of other settings."""
    assert reported(capsys, "sub", "src") == (1, EXPECTED)
    assert reported(capsys, "src", "sub") == (1, EXPECTED)
    dotted(tree / "sub", 'select = ["NGL002"]\nexclude = ["/gen/"]\n')
    assert reported(capsys, "src", "sub") == (1, ["src/split.py:NGL001", "sub/nodelay.py:NGL002"])


def test_a_nested_configurations_patterns_are_written_from_its_folder(capsys, tree):
    write(tree, "gen/split.py", SPLIT)  # /gen/ of sub's configuration is sub/gen, not this one
    write(tree, "sub/tests/split.py", SPLIT)
    dotted(tree / "sub", '''\
        exclude = ["/gen/"]
        [per-file-ignores]
        "/tests/" = ["NGL001"]
        ''')
    assert reported(capsys, ".") == (1, ["gen/split.py:NGL001", "src/split.py:NGL001", "sub/nodelay.py:NGL002",
                                         "sub/split.py:NGL001"])


def test_the_nearest_configuration_is_not_merged_with_the_ones_above(capsys, tree):
    """As in ruff: sub's file has no `exclude`, so the root's does not reach into sub."""
    pyproject(tree, 'select = ["NGL001"]\nexclude = ["split.py"]\n')
    dotted(tree / "sub", 'select = ["NGL001"]\n')
    assert reported(capsys, ".") == (1, ["sub/gen/split.py:NGL001", "sub/split.py:NGL001"])


def test_confidence_and_fail_on_are_each_files_own(capsys, tree):
    write(tree, "src/low.c", MEDIUM_C)
    write(tree, "sub/low.c", MEDIUM_C)
    dotted(tree / "sub", 'min-confidence = "low"\nfail-on = "note"\nexclude = ["/gen/"]\n')
    code, found = reported(capsys, "--no-cache", "src/low.c", "src/nodelay.py", "sub/low.c", "sub/nodelay.py")
    assert found == ["sub/low.c:NGL001", "sub/nodelay.py:NGL002"]
    assert code == 1
    # A note fails only where its file's fail-on says so.
    assert reported(capsys, "--no-cache", "sub/nodelay.py") == (1, ["sub/nodelay.py:NGL002"])
    write(tree, "other/nodelay.py", NODELAY_NOTE)
    dotted(tree / "other", 'select = ["NGL002"]\n')
    assert reported(capsys, "--no-cache", "other/nodelay.py") == (0, ["other/nodelay.py:NGL002"])


def test_the_command_line_is_on_top_of_every_configuration(capsys, tree):
    assert reported(capsys, "--no-cache", "--select", "NGL002", "src", "sub") == (
        0, ["src/nodelay.py:NGL002", "sub/nodelay.py:NGL002"])
    assert reported(capsys, "--no-cache", "--ignore", "NGL001", ".") == (0, ["sub/nodelay.py:NGL002"])


def test_config_option_is_used_for_every_file(capsys, tree):
    config = write(tree, "ci.toml", 'select = ["NGL002"]\n')
    assert reported(capsys, "--no-cache", "--config", config, "src", "sub") == (
        0, ["src/nodelay.py:NGL002", "sub/gen/nodelay.py:NGL002", "sub/nodelay.py:NGL002"])


def test_a_file_with_no_configuration_above_takes_the_current_folders(capsys, tree, tmp_path):
    """As ruff falls back: the configuration found from the current folder."""
    write(tmp_path, "elsewhere/split.py", SPLIT)
    write(tmp_path, "elsewhere/nodelay.py", NODELAY_NOTE)
    assert reported(capsys, "--no-cache", tmp_path / "elsewhere") == (1, [f"{(tmp_path / 'elsewhere').as_posix().lstrip('./')}/split.py:NGL001"])


def test_show_settings_shows_what_a_given_file_gets(capsys, tree):
    code, out, _ = run_cli(capsys, "--show-settings", "sub/split.py")
    assert code == 0
    assert out.splitlines()[:3] == ["# sub/split.py", f"# settings from {tree / 'sub' / '.nagle-lint.toml'}",
                                    'select = ["NGL001", "NGL002"]']
    code, out, _ = run_cli(capsys, "--show-settings", "src/split.py", "--select", "NGL003")
    assert out.splitlines()[:3] == ["# src/split.py", f"# settings from {tree / 'pyproject.toml'}",
                                    'select = ["NGL003"]']


def test_a_broken_nested_configuration_stops_the_run(capsys, tree):
    dotted(tree / "sub", 'select = "NGL001"\n')
    code, out, err = run_cli(capsys, "--no-cache", "src", "sub")
    assert (code, out) == (2, "")
    assert err.startswith(f"nagle-lint: error: {tree / 'sub' / '.nagle-lint.toml'}: 'select' must be")


def test_workers_use_each_files_settings(tmp_path, monkeypatch):
    """A run big enough for worker processes lints each file with its own
    settings, as a run in one process does."""
    n = PARALLEL_THRESHOLD
    for i in range(n):
        write(tmp_path, f"a/s{i}.py", SPLIT)
        write(tmp_path, f"b/s{i}.py", SPLIT)
        write(tmp_path, f"b/low{i}.c", MEDIUM_C)
    dotted(tmp_path / "a", 'max-file-size = 10\n')  # every file of a/ is too big
    dotted(tmp_path / "b", 'min-confidence = "low"\nignore = ["NGL002"]\n')
    monkeypatch.chdir(tmp_path)
    one, two = (run(["a", "b"], Resolver(), jobs=jobs) for jobs in (1, 2))
    assert one == two
    assert sorted({(f.path.split("/")[0], f.path.endswith(".c")) for f in one.findings}) == [("b", False), ("b", True)]
    assert len(one.findings) == 2 * n
    assert sum("too big" in m for _, m in one.problems) == n


def test_standard_input_takes_the_configuration_of_the_name_it_is_given(capsys, tree, monkeypatch):
    """As ruff resolves `--stdin-filename`: the nearest configuration above that path."""
    import io
    import sys

    for name, expected in (("sub/new.py", ["sub/new.py:NGL002"]), ("src/new.py", [])):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(NODELAY_NOTE.encode())))
        assert reported(capsys, "--stdin-filename", name, "-") == (0, expected)
