"""The rule documents ship inside the wheel: build a wheel of this checkout,
install it (not editable) into a fresh virtual environment, and run the
installed `nagle-lint` from a folder outside the source tree."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from nagle_lint import __version__
from nagle_lint.rules import all_rules

ROOT = Path(__file__).resolve().parent.parent
BIN = "Scripts" if os.name == "nt" else "bin"
EXE = ".exe" if os.name == "nt" else ""


def _run(cmd, **kwargs):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=180, **kwargs)
    assert p.returncode == 0, f"{' '.join(map(str, cmd))} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}"
    return p


def _clean_env() -> dict:
    """An environment that cannot see the source tree."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PYTHONNOUSERSITE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out]
    if importlib.util.find_spec("hatchling") is not None:
        cmd.append("--no-build-isolation")  # offline: use the hatchling installed here
    _run(cmd + [ROOT], env=_clean_env())
    [built] = out.glob("nagle_lint-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; its dependencies (tree-sitter and
    the grammars) are taken from the environment running the tests, so no
    network is needed."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])  # the outer pip installs: seeding pip costs ~9 s
    python = venv / BIN / f"python{EXE}"
    site = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    outer = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site, "outer_deps.pth").write_text("\n".join(sorted(outer)) + "\n", encoding="utf-8")
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "--force-reinstall",
          "--quiet", wheel], env=_clean_env())
    return venv


def test_wheel_contains_the_rule_documents(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for rule_id in all_rules():
        assert f"nagle_lint/rules/{rule_id}.md" in names
    assert "nagle_lint/cli.py" in names
    assert not any(n.startswith(("tests/", "fixtures/")) for n in names)


def test_installed_explain_prints_the_rule_document(installed, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    script = installed / BIN / f"nagle-lint{EXE}"
    assert script.exists()
    env = _clean_env()

    # The package really comes from the venv, not from the checkout.
    where = _run([installed / BIN / f"python{EXE}", "-c", "import nagle_lint; print(nagle_lint.__file__)"],
                 cwd=outside, env=env).stdout.strip()
    assert Path(where).resolve().is_relative_to(installed.resolve()), where

    for rule_id, rule in all_rules().items():
        p = _run([script, "explain", rule_id], cwd=outside, env=env)
        document = (ROOT / "rules" / f"{rule_id}.md").read_text(encoding="utf-8")
        assert p.stdout == rule.body
        assert p.stdout.strip() == document.split("\n---\n", 1)[1].strip()

    p = _run([script, "rules"], cwd=outside, env=env)
    assert [line.split()[0] for line in p.stdout.splitlines()] == list(all_rules())
    p = _run([script, "--version"], cwd=outside, env=env)
    assert p.stdout.strip() == f"nagle-lint {__version__}"


def test_installed_linter_finds_a_split_write(installed, tmp_path):
    (tmp_path / "client.py").write_text(
        "import socket\n\n\ndef call(addr, head, body):\n"
        "    s = socket.create_connection(addr)\n    s.sendall(head)\n    s.sendall(body)\n    return s.recv(10)\n",
        encoding="utf-8")
    p = subprocess.run([str(installed / BIN / f"nagle-lint{EXE}"), "client.py"], cwd=tmp_path, env=_clean_env(),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1, p.stderr
    assert p.stdout.startswith("client.py:7:5: NGL001 ")


def test_the_mit_license_ships_in_the_wheel(wheel):
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "the nagle-lint authors" in text
    with zipfile.ZipFile(wheel) as whl:
        [licence] = [n for n in whl.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert whl.read(licence).decode("utf-8") == text
        [metadata] = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        assert "License-Expression: MIT" in whl.read(metadata).decode("utf-8").splitlines()


def test_every_file_the_sdist_lists_exists():
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = pyproject["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert "LICENSE" in listed
    assert [name for name in listed if not (ROOT / name).exists()] == []
