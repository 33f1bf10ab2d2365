""".pre-commit-hooks.yaml: the hook installed by the real pre-commit
(`pre-commit run` with a config naming a committed copy of this project) blocks a
commit that splits a write, lets the fixed file through, and honours the
configured excludes for files pre-commit names explicitly."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from test_action import assert_a_ref_of_this_repository, copy_project

ROOT = Path(__file__).resolve().parent.parent

SPLIT = """import socket


def ask(host):
    sock = socket.create_connection((host, 7000))
    sock.sendall(b"HEAD")
    sock.sendall(b"BODY")
    return sock.recv(100)
"""
FIXED = SPLIT.replace('    sock.sendall(b"HEAD")\n    sock.sendall(b"BODY")\n', '    sock.sendall(b"HEAD" + b"BODY")\n')


def test_hook_definition():
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == "nagle-lint" and hook["language"] == "python"
    assert hook["types_or"] == ["c", "java", "python"]
    assert hook["require_serial"] is True
    assert "--force-exclude" in hook["entry"].split() + hook.get("args", [])


def _env(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update({"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),  # the user's pip and virtualenv caches are kept
                "PRE_COMMIT_HOME": str(home / "pre-commit-cache"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    return env


def _run(args, cwd, env, timeout=240):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


GIT = ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory):
    """A committed copy of this project: what `pre-commit` installs the hook from."""
    pytest.importorskip("pre_commit", reason="pre-commit is in the test extras")
    home = tmp_path_factory.mktemp("home")
    hooks = copy_project(home / "nagle-lint")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "nagle-lint"]):
        proc = _run([*GIT, *args], hooks, _env(home))
        assert proc.returncode == 0, proc.stderr
    return hooks


@pytest.fixture(scope="module")
def home(hook_repo):
    """One user's home for the module: pre-commit builds the hook's environment once
    and reuses it, as it does for a user (building it is most of each test's time)."""
    return hook_repo.parent


def service(home: Path, hooks: Path, tmp_path: Path, client: str) -> tuple[Path, dict]:
    """A user's repository with client.py, an excluded vendor/theirs.py and a
    .pre-commit-config.yaml naming the hook at the hooks repository's HEAD, staged."""
    env = _env(home)
    user = tmp_path / "service"
    (user / "vendor").mkdir(parents=True)
    (user / "client.py").write_text(client, encoding="utf-8")
    (user / "vendor" / "theirs.py").write_text(SPLIT, encoding="utf-8")  # excluded by the config below
    (user / "pyproject.toml").write_text('[tool.nagle-lint]\nexclude = ["vendor"]\n', encoding="utf-8")
    rev = _run([*GIT, "rev-parse", "HEAD"], hooks, env).stdout.strip()
    config = {"repos": [{"repo": str(hooks), "rev": rev, "hooks": [{"id": "nagle-lint"}]}]}
    (user / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"]):
        assert _run([*GIT, *args], user, env).returncode == 0
    return user, env


def run_hooks(user: Path, env: dict):
    """`pre-commit run` on the staged files, as `git commit` would."""
    proc = _run([sys.executable, "-m", "pre_commit", "run", "--color", "never"], user, env)
    return proc.returncode, proc.stdout + proc.stderr


def test_pre_commit_blocks_a_staged_split_write(hook_repo, home, tmp_path):
    user, env = service(home, hook_repo, tmp_path, SPLIT)
    code, out = run_hooks(user, env)
    assert code == 1, out
    assert re.search(r"^nagle-lint\.+Failed$", out, re.M), out
    assert "client.py:7:5: NGL001 second send on 'sock' (first at line 6)" in out
    assert "theirs.py" not in out  # excluded in the config, though pre-commit names it


def test_pre_commit_passes_once_the_write_is_joined(hook_repo, home, tmp_path):
    user, env = service(home, hook_repo, tmp_path, SPLIT)
    assert _run([*GIT, "commit", "-q", "--no-verify", "-m", "before"], user, env).returncode == 0
    (user / "client.py").write_text(FIXED, encoding="utf-8")
    assert _run([*GIT, "add", "client.py"], user, env).returncode == 0
    code, out = run_hooks(user, env)
    assert code == 0, out
    assert re.search(r"^nagle-lint\.+Passed$", out, re.M), out
    assert "NGL001" not in out


def test_readme_snippet_names_the_hook():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M) if "pre-commit-config" in b)
    (repo,) = yaml.safe_load(block)["repos"]
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [h["id"] for h in repo["hooks"]] == [hook["id"]]
    assert_a_ref_of_this_repository(repo["rev"])
