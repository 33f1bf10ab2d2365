"""Settings from `[tool.nagle-lint]` in pyproject.toml or from .nagle-lint.toml:
every key, the layering under the command line, and one clear line (exit 2,
no traceback) for every kind of bad configuration."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from nagle_lint.cli import main
from nagle_lint.config import ConfigError, Settings, find_config, load

from test_cli import BYTE_LOOP, JOINED, NODELAY_NOTE, SPLIT, finding_lines, run, write

# One NGL001 (line 7), one NGL002 note (line 13), one NGL003 (line 20).
MIXED = (SPLIT + "\n\n" + NODELAY_NOTE.replace("import socket\n", "") + "\n\n"
         + BYTE_LOOP.replace("import socket\n", ""))


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project folder (the working directory) with one mixed file."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "mixed.py", MIXED)
    return tmp_path


def pyproject(folder: Path, body: str, extra: str = "") -> Path:
    path = folder / "pyproject.toml"
    path.write_text(textwrap.dedent(f"""\
        [project]
        name = "demo"
        {extra}
        [tool.nagle-lint]
        """) + textwrap.dedent(body), encoding="utf-8")
    return path


def dotted(folder: Path, body: str) -> Path:
    path = folder / ".nagle-lint.toml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def reported(capsys, *argv) -> tuple[int, list[str]]:
    code, out, err = run(capsys, *argv)
    assert code in (0, 1), err
    return code, sorted(f"{Path(p).as_posix().lstrip('./')}:{rule}" for p, _, rule in finding_lines(out))


# --- every key, in both files ---------------------------------------------------

CONFIG_FILES = [pytest.param(pyproject, id="pyproject"), pytest.param(dotted, id="dotted")]


@pytest.mark.parametrize("make", CONFIG_FILES)
def test_no_config_runs_the_default_rules(capsys, project, make):
    assert reported(capsys, "mixed.py") == (1, ["mixed.py:NGL001", "mixed.py:NGL002", "mixed.py:NGL003"])


@pytest.mark.parametrize("make", CONFIG_FILES)
def test_select(capsys, project, make):
    make(project, 'select = ["NGL002"]\n')
    assert reported(capsys, "mixed.py") == (0, ["mixed.py:NGL002"])


@pytest.mark.parametrize("make", CONFIG_FILES)
def test_select_prefix(capsys, project, make):
    make(project, 'select = ["ngl00"]\n')
    assert reported(capsys, "mixed.py")[1] == ["mixed.py:NGL001", "mixed.py:NGL002", "mixed.py:NGL003"]


@pytest.mark.parametrize("make", CONFIG_FILES)
def test_ignore(capsys, project, make):
    make(project, 'ignore = ["NGL001", "NGL003"]\n')
    assert reported(capsys, "mixed.py") == (0, ["mixed.py:NGL002"])


@pytest.mark.parametrize("make", CONFIG_FILES)
def test_exclude(capsys, project, make):
    write(project, "vendor/lib.py", SPLIT)
    write(project, "src/gen/out.py", SPLIT)
    write(project, "src/app.py", SPLIT)
    make(project, 'exclude = ["vendor", "src/gen/*", "mixed.py"]\n')
    assert reported(capsys, ".") == (1, ["src/app.py:NGL001"])


@pytest.mark.parametrize("make", CONFIG_FILES)
def test_per_file_ignores(capsys, project, make):
    write(project, "scripts/x.py", MIXED)
    write(project, "src/app.py", MIXED)
    make(project, """\
        [per-file-ignores]
        "scripts/*" = ["NGL001", "NGL003"]
        "app.py" = ["NGL00"]
        """ if make is dotted else """\
        [tool.nagle-lint.per-file-ignores]
        "scripts/*" = ["NGL001", "NGL003"]
        "app.py" = ["NGL00"]
        """)
    _, got = reported(capsys, ".")
    assert got == ["mixed.py:NGL001", "mixed.py:NGL002", "mixed.py:NGL003", "scripts/x.py:NGL002"]


@pytest.mark.parametrize("make", CONFIG_FILES)
def test_fail_on(capsys, project, make):
    write(project, "nodelay.py", NODELAY_NOTE)
    assert reported(capsys, "nodelay.py")[0] == 0
    make(project, 'fail-on = "note"\n')
    assert reported(capsys, "nodelay.py") == (1, ["nodelay.py:NGL002"])


@pytest.mark.parametrize("make", CONFIG_FILES)
def test_min_confidence(capsys, project, make):
    write(project, "fd.c", """\
        #include <unistd.h>

        int call(int fd, const char *h, const char *b, char *r)
        {
            write(fd, h, 4);
            write(fd, b, 4);
            return read(fd, r, 4);
        }
        """)
    assert reported(capsys, "fd.c") == (0, [])
    make(project, 'min-confidence = "low"\n')
    assert reported(capsys, "fd.c") == (1, ["fd.c:NGL001"])


def test_min_confidence_high_hides_named_only_sockets(capsys, project):
    write(project, "med.py", "def call(sock, h, b):\n    sock.sendall(h)\n    sock.sendall(b)\n    return sock.recv(1)\n")
    assert reported(capsys, "med.py") == (1, ["med.py:NGL001"])
    pyproject(project, 'min-confidence = "high"\n')
    assert reported(capsys, "med.py") == (0, [])


def test_load_reads_every_key(tmp_path):
    path = pyproject(tmp_path, """\
        select = ["NGL001", "NGL00"]
        ignore = ["ngl003"]
        exclude = ["vendor", "build/*"]
        fail-on = "note"
        min-confidence = "high"

        [tool.nagle-lint.per-file-ignores]
        "tests/*" = ["NGL002"]
        """)
    s = load(path)
    assert s.select == ("NGL001", "NGL00")
    assert s.ignore == ("NGL003",)
    assert s.exclude == ("vendor", "build/*")
    assert s.per_file_ignores == {"tests/*": ("NGL002",)}
    assert (s.fail_on, s.min_confidence) == ("note", "high")
    assert s.source == str(path)


def test_an_empty_table_gives_the_defaults(tmp_path):
    s = load(pyproject(tmp_path, ""))
    defaults = Settings()
    assert (s.select, s.ignore, s.exclude, s.per_file_ignores, s.fail_on, s.min_confidence) == (
        defaults.select, defaults.ignore, defaults.exclude, defaults.per_file_ignores, defaults.fail_on,
        defaults.min_confidence)


# --- finding the config ----------------------------------------------------------------


def test_config_is_found_from_a_subfolder(capsys, project):
    pyproject(project, 'select = ["NGL003"]\n')
    write(project, "pkg/sub/mixed.py", MIXED)
    assert reported(capsys, "pkg/sub") == (1, ["pkg/sub/mixed.py:NGL003"])
    assert reported(capsys, "pkg/sub/mixed.py") == (1, ["pkg/sub/mixed.py:NGL003"])


def test_a_pyproject_without_the_table_is_passed_over(tmp_path):
    pyproject(tmp_path, 'select = ["NGL003"]\n')
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "inner"\n[tool.black]\nline-length = 100\n')
    assert find_config(inner) == str((tmp_path / "pyproject.toml").resolve())


def test_the_nearest_config_wins(tmp_path):
    pyproject(tmp_path, 'select = ["NGL003"]\n')
    inner = tmp_path / "inner"
    inner.mkdir()
    dotted(inner, 'select = ["NGL001"]\n')
    assert find_config(inner) == str((inner / ".nagle-lint.toml").resolve())
    assert find_config(tmp_path) == str((tmp_path / "pyproject.toml").resolve())


def test_a_linked_folder_takes_the_configuration_above_its_target(tmp_path):
    """A folder's configuration is the one nearest its real path: a folder
    that is a link, below a folder asked before, takes the settings above
    its target, not those above the link."""
    from nagle_lint.config import Resolver

    tree, elsewhere = tmp_path / "tree", tmp_path / "elsewhere"
    (tree / "src").mkdir(parents=True)
    (elsewhere / "lib").mkdir(parents=True)
    dotted(tree, 'select = ["NGL003"]\n')
    dotted(elsewhere, 'select = ["NGL001"]\n')
    (tree / "src" / "linked").symlink_to(elsewhere / "lib", target_is_directory=True)
    resolver = Resolver(start=str(tree))
    assert resolver.in_folder(str(tree / "src")).select == ("NGL003",)
    assert resolver.in_folder(str(tree / "src" / "linked")).select == ("NGL001",)
    assert resolver.of(str(tree / "src" / "linked" / "x.py")).select == ("NGL001",)
    assert resolver.in_folder(str(tree / "src" / "linked" / "inner")).select == ("NGL001",)


def test_dotted_file_wins_over_pyproject_in_the_same_folder(tmp_path):
    pyproject(tmp_path, 'select = ["NGL003"]\n')
    dotted(tmp_path, 'select = ["NGL001"]\n')
    assert find_config(tmp_path) == str((tmp_path / ".nagle-lint.toml").resolve())


def test_explicit_config_file(capsys, project):
    pyproject(project, 'select = ["NGL003"]\n')
    other = project / "other.toml"
    other.write_text('[tool.nagle-lint]\nselect = ["NGL001"]\n', encoding="utf-8")
    assert reported(capsys, "--config", other, "mixed.py") == (1, ["mixed.py:NGL001"])


@pytest.mark.parametrize("name", ["ci.toml", "nagle.toml", "lint-settings"])
def test_explicit_config_file_of_any_name_with_its_own_keys(capsys, project, name):
    """--config reads a file of any name: its [tool.nagle-lint] table where
    it has one, else its top-level keys (as a .nagle-lint.toml)."""
    pyproject(project, 'select = ["NGL003"]\n')
    (project / name).write_text('select = ["NGL002"]\n', encoding="utf-8")
    assert reported(capsys, "--config", name, "mixed.py") == (0, ["mixed.py:NGL002"])  # a note
    (project / name).write_text('selct = ["NGL002"]\n', encoding="utf-8")  # read, so checked
    code, _, err = run(capsys, "--config", name, "mixed.py")
    assert code == 2 and "unknown key 'selct'" in err
    (project / name).write_text('[tool.nagle-lint]\nselect = ["NGL001"]\n', encoding="utf-8")
    assert reported(capsys, "--config", name, "mixed.py") == (1, ["mixed.py:NGL001"])


def test_explicit_config_file_that_does_not_exist(capsys, project):
    code, out, err = run(capsys, "--config", project / "nope.toml", "mixed.py")
    assert (code, out) == (2, "")
    assert "nope.toml" in err and len(err.strip().splitlines()) == 1


# --- the command line wins ----------------------------------------------------------------


def test_cli_select_wins(capsys, project):
    pyproject(project, 'select = ["NGL002"]\n')
    assert reported(capsys, "--select", "NGL001", "mixed.py") == (1, ["mixed.py:NGL001"])


def test_cli_ignore_wins(capsys, project):
    pyproject(project, 'ignore = ["NGL001"]\n')
    assert reported(capsys, "--ignore", "NGL003", "mixed.py")[1] == ["mixed.py:NGL001", "mixed.py:NGL002"]


def test_cli_fail_on_wins(capsys, project):
    write(project, "nodelay.py", NODELAY_NOTE)
    pyproject(project, 'fail-on = "note"\n')
    assert reported(capsys, "nodelay.py")[0] == 1
    assert reported(capsys, "--fail-on", "warning", "nodelay.py")[0] == 0


def test_cli_min_confidence_wins(capsys, project):
    write(project, "med.py", "def call(sock, h, b):\n    sock.sendall(h)\n    sock.sendall(b)\n    return sock.recv(1)\n")
    pyproject(project, 'min-confidence = "high"\n')
    assert reported(capsys, "med.py") == (0, [])
    assert reported(capsys, "--min-confidence", "medium", "med.py") == (1, ["med.py:NGL001"])


def test_cli_exclude_adds_to_the_config(capsys, project):
    write(project, "a/x.py", SPLIT)
    write(project, "b/x.py", SPLIT)
    write(project, "c/x.py", SPLIT)
    pyproject(project, 'exclude = ["a", "mixed.py"]\n')
    assert reported(capsys, "--exclude", "b", ".") == (1, ["c/x.py:NGL001"])


def test_cli_exit_zero_with_config(capsys, project):
    pyproject(project, 'fail-on = "note"\n')
    code, out, _ = run(capsys, "--exit-zero", "mixed.py")
    assert code == 0 and "NGL001" in out


# --- where per-file-ignores and excludes are anchored ------------------------------------


def test_per_file_ignores_apply_when_linting_the_project_from_outside(capsys, tmp_path, monkeypatch):
    """CI often runs `nagle-lint path/to/checkout` from elsewhere: the patterns
    are written relative to the project (the config's folder), so they must
    still apply."""
    proj = tmp_path / "proj"
    write(proj, "tests/test_x.py", SPLIT)
    write(proj, "src/app.py", SPLIT)
    pyproject(proj, '[tool.nagle-lint.per-file-ignores]\n"tests/*" = ["NGL001"]\n')
    monkeypatch.chdir(tmp_path)
    assert reported(capsys, "proj") == (1, ["proj/src/app.py:NGL001"])
    assert reported(capsys, proj.resolve()) == (1, [f"{proj.resolve().as_posix().lstrip('./')}/src/app.py:NGL001"])


def test_per_file_ignores_apply_from_the_project_root(capsys, tmp_path, monkeypatch):
    write(tmp_path, "tests/test_x.py", SPLIT)
    write(tmp_path, "src/app.py", SPLIT)
    pyproject(tmp_path, '[tool.nagle-lint.per-file-ignores]\n"tests/*" = ["NGL001"]\n')
    monkeypatch.chdir(tmp_path)
    assert reported(capsys, ".") == (1, ["src/app.py:NGL001"])
    assert reported(capsys) == (1, ["src/app.py:NGL001"])
    # Files named one by one, as pre-commit does.
    assert reported(capsys, "tests/test_x.py", "src/app.py") == (1, ["src/app.py:NGL001"])


def test_config_exclude_applies_when_linting_the_project_from_outside(capsys, tmp_path, monkeypatch):
    proj = tmp_path / "proj"
    write(proj, "vendor/lib/x.py", SPLIT)
    write(proj, "src/app.py", SPLIT)
    pyproject(proj, 'exclude = ["vendor/*"]\n')
    monkeypatch.chdir(tmp_path)
    assert reported(capsys, "proj") == (1, ["proj/src/app.py:NGL001"])


def test_config_exclude_applies_when_linting_a_subfolder(capsys, tmp_path, monkeypatch):
    """`exclude = ["src/gen/*"]` is written from the project's root: it still
    holds when only `src` is linted."""
    write(tmp_path, "src/gen/out.py", SPLIT)
    write(tmp_path, "src/app.py", SPLIT)
    pyproject(tmp_path, 'exclude = ["src/gen/*"]\n')
    monkeypatch.chdir(tmp_path)
    assert reported(capsys, ".") == (1, ["src/app.py:NGL001"])
    assert reported(capsys, "src") == (1, ["src/app.py:NGL001"])


def test_per_file_ignores_follow_the_exclude_patterns_rules(capsys, tmp_path, monkeypatch):
    """A per-file-ignores pattern reads as an `exclude` pattern does (gitignore's
    rules): `src/*.py` is anchored and does not reach `src/deep/x.py`; a name
    without a slash matches at any depth; `gen/` matches what lies in a folder."""
    write(tmp_path, "src/top.py", SPLIT)
    write(tmp_path, "src/deep/x.py", SPLIT)
    write(tmp_path, "lib/conftest.py", SPLIT)
    write(tmp_path, "lib/gen/made.py", SPLIT)
    write(tmp_path, "lib/app.py", SPLIT)
    pyproject(tmp_path, '[tool.nagle-lint.per-file-ignores]\n"src/*.py" = ["NGL001"]\n'
                        '"conftest.py" = ["NGL001"]\n"gen/" = ["NGL001"]\n')
    monkeypatch.chdir(tmp_path)
    assert reported(capsys, ".") == (1, ["lib/app.py:NGL001", "src/deep/x.py:NGL001"])
    monkeypatch.chdir(tmp_path / "lib")  # written from the configuration's folder, wherever the run starts
    assert reported(capsys, ".") == (1, ["app.py:NGL001"])


def test_command_line_excludes_are_written_from_the_current_folder(capsys, tmp_path, monkeypatch):
    """As ruff reads `--exclude`: from where the command runs (a shell path),
    not from the configuration file's folder as the file's own patterns are."""
    write(tmp_path, "sub/gen/c.py", SPLIT)
    write(tmp_path, "sub/app.py", SPLIT)
    write(tmp_path, "gen/c.py", SPLIT)
    pyproject(tmp_path, 'exclude = ["/sub/app.py"]\n')
    monkeypatch.chdir(tmp_path / "sub")
    # Only ../gen/c.py is left (`reported` strips the leading "../").
    assert reported(capsys, "--exclude", "gen/c.py", ".", "../gen") == (1, ["gen/c.py:NGL001"])
    code, out, _ = run(capsys, "--exclude", "gen/c.py", "--show-settings")
    assert code == 0 and 'exclude = ["/sub/app.py"]' in out.splitlines()
    assert '# and --exclude (from the current folder): ["gen/c.py"]' in out.splitlines()


# --- bad configuration: exit 2, one line naming the file and the key ---------------------

BAD = [
    pytest.param('select = ["NGL001"\n', None, id="malformed-toml"),
    pytest.param("select = [\n", None, id="malformed-toml-eof"),
    pytest.param('bogus = 1\n', "bogus", id="unknown-key"),
    pytest.param('per_file_ignores = {}\n', "per_file_ignores", id="unknown-key-underscore"),
    pytest.param('select = "NGL001"\n', "select", id="select-not-a-list"),
    pytest.param('ignore = [1]\n', "ignore", id="ignore-not-strings"),
    pytest.param('exclude = "vendor"\n', "exclude", id="exclude-not-a-list"),
    pytest.param('fail-on = "error"\n', "fail-on", id="fail-on-bad-value"),
    pytest.param('fail-on = 1\n', "fail-on", id="fail-on-wrong-type"),
    pytest.param('min-confidence = "certain"\n', "min-confidence", id="min-confidence-bad-value"),
    pytest.param('min-confidence = 2\n', "min-confidence", id="min-confidence-wrong-type"),
    pytest.param('per-file-ignores = ["tests/*"]\n', "per-file-ignores", id="per-file-ignores-not-a-table"),
    pytest.param('per-file-ignores = {"tests/*" = "NGL001"}\n', "per-file-ignores", id="per-file-ignores-not-a-list"),
    pytest.param('select = ["NGL777"]\n', "select", id="select-unknown-rule"),
    pytest.param('ignore = ["W291"]\n', "ignore", id="ignore-unknown-rule"),
    pytest.param('per-file-ignores = {"tests/*" = ["NOPE"]}\n', "per-file-ignores", id="per-file-ignores-unknown-rule"),
]


def _assert_one_line_error(code, out, err, path: Path, key):
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("nagle-lint: error: ")
    assert path.name in lines[0]
    if key is None:
        assert "TOML" in lines[0]
    else:
        assert f"'{key}'" in lines[0]


@pytest.mark.parametrize("body, key", BAD)
def test_bad_pyproject(capsys, project, body, key):
    path = pyproject(project, body)
    code, out, err = run(capsys, "mixed.py")
    _assert_one_line_error(code, out, err, path, key)
    assert str(path) in err or "pyproject.toml" in err


@pytest.mark.parametrize("body, key", BAD)
def test_bad_dotted_file(capsys, project, body, key):
    path = dotted(project, body)
    code, out, err = run(capsys, "mixed.py")
    _assert_one_line_error(code, out, err, path, key)


def test_bad_config_given_with_config_option(capsys, project):
    bad = project / "ci.toml"
    bad.write_text("[tool.nagle-lint]\nselect = 3\n", encoding="utf-8")
    code, out, err = run(capsys, "--config", bad, "mixed.py")
    _assert_one_line_error(code, out, err, bad, "select")


def test_config_that_is_not_utf8(capsys, project):
    path = project / ".nagle-lint.toml"
    path.write_bytes(b'select = ["\xff\xfe"]\n')
    code, out, err = run(capsys, "mixed.py")
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and ".nagle-lint.toml" in err


def test_tool_table_of_the_wrong_type(capsys, project):
    (project / "pyproject.toml").write_text('[tool]\nnagle-lint = 3\n', encoding="utf-8")
    code, out, err = run(capsys, "mixed.py")
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "pyproject.toml" in err and "nagle-lint" in err


def test_load_raises_config_error_not_something_else(tmp_path):
    for body, key in [(p.values[0], p.values[1]) for p in BAD]:
        path = pyproject(tmp_path, body)
        with pytest.raises(ConfigError) as info:
            load(path)
        assert str(path) in str(info.value)
        assert "\n" not in str(info.value)


def test_bad_config_does_not_hide_behind_json(capsys, project):
    """A config error is not turned into an empty report."""
    pyproject(project, "bogus = true\n")
    code, out, err = run(capsys, "--format", "json", "mixed.py")
    assert (code, out) == (2, "")
    assert "bogus" in err


def test_good_config_next_to_a_clean_file(capsys, project):
    write(project, "clean.py", JOINED)
    pyproject(project, 'select = ["NGL"]\nfail-on = "note"\n')
    assert reported(capsys, "clean.py") == (0, [])


def test_main_returns_not_raises_on_config_errors(project):
    pyproject(project, "select = 1\n")
    assert main(["mixed.py"]) == 2
