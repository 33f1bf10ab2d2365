"""action.yml: its `run:` steps, taken from the file as written, run with bash
the way the Actions runner runs a composite action (inputs substituted into
`env:`, GITHUB_OUTPUT, GITHUB_ACTION_PATH, RUNNER_TEMP), on a fixture folder;
then again with hostile inputs, to prove that nothing in them is executed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from test_sarif import validate_sarif

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def copy_project(dest: Path) -> Path:
    """The project's files (tracked, and new ones not ignored), as a checkout has them."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode("utf-8", "surrogateescape")
    for rel in filter(None, listed.split("\0")):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    return dest


def expand(value, inputs: dict, github: dict) -> str:
    """The runner's substitution of ${{ inputs.X }} and ${{ github.X }}; any
    other expression fails the test (the action must not depend on it)."""
    def one(m):
        context, _, name = m.group(1).partition(".")
        if context == "inputs":
            return inputs[name]
        if context == "github":
            return github[name]
        raise AssertionError(f"unexpected expression {m.group(0)}")
    return EXPRESSION.sub(one, str(value))


def read_outputs(path: Path) -> dict:
    """GITHUB_OUTPUT as the runner reads it: name=value and name<<DELIMITER blocks."""
    outputs, lines = {}, path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            end = lines.index(delimiter, i + 1)
            outputs[name] = "\n".join(lines[i + 1:end])
            i = end + 1
            continue
        if "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
        i += 1
    return outputs


class Runner:
    def __init__(self, action_path: Path, temp: Path):
        self.action_path = action_path
        self.temp = temp

    def run_step(self, step: dict, workspace: Path, inputs: dict, github: dict, output: Path):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "NAGLE_LINT_", "INPUT_"))}
        env.update({
            "PATH": os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""),
            "GITHUB_ACTIONS": "true", "CI": "true",
            "GITHUB_ACTION_PATH": str(self.action_path), "GITHUB_WORKSPACE": str(workspace),
            "GITHUB_OUTPUT": str(output), "RUNNER_TEMP": str(self.temp),
            "GIT_CONFIG_NOSYSTEM": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        })
        for key, value in (step.get("env") or {}).items():
            env[key] = expand(value, inputs, github)
        script = self.temp / f"step-{step.get('id') or 'x'}.sh"
        script.write_text(step["run"], encoding="utf-8")
        return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=workspace,
                              env=env, capture_output=True, text=True, timeout=120)


def inputs_with(**given) -> dict:
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    for name, value in given.items():
        name = name.replace("_", "-")
        assert name in values, name
        values[name] = value
    return values


def lint_step() -> dict:
    return next(s for s in ACTION["runs"]["steps"] if s.get("id") == "lint")


@pytest.fixture(scope="module")
def runner(tmp_path_factory):
    """The install step, run once: a virtualenv in RUNNER_TEMP with nagle-lint
    installed from the action's own checkout."""
    action_path = copy_project(tmp_path_factory.mktemp("action"))
    temp = tmp_path_factory.mktemp("runner-temp")
    r = Runner(action_path, temp)
    install = ACTION["runs"]["steps"][0]
    assert "env" not in install  # no input reaches the install step
    proc = r.run_step(install, temp, inputs_with(), {"base_ref": ""}, temp / "unused-output")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return r


@pytest.fixture
def workspace(tmp_path):
    ws = tmp_path / "workspace"
    shutil.copytree(ROOT / "fixtures" / "python", ws / "fixtures" / "python")
    return ws


def run_lint(runner, workspace, github=None, **given):
    output = workspace.parent / "github_output"
    output.write_text("", encoding="utf-8")
    proc = runner.run_step(lint_step(), workspace, inputs_with(**given), {"base_ref": "", **(github or {})}, output)
    outputs = read_outputs(output)
    if "sarif-file" in outputs:  # every SARIF log the action writes is valid
        validate_sarif(json.loads((workspace / outputs["sarif-file"]).read_text(encoding="utf-8")))
    return proc, outputs


def commands(stdout: str) -> list[tuple[str, str]]:
    """(command, rest) of each workflow command outside ::stop-commands:: fences."""
    out, fence = [], None
    for line in stdout.split("\n"):
        if fence:
            fence = None if line == f"::{fence}::" else fence
            continue
        m = re.match(r"^::([a-z-]+)(?: [^:]*)?::(.*)$", line)
        if m and m.group(1) == "stop-commands":
            fence = m.group(2)
        elif m:
            out.append((m.group(1), line))
    return out


def expected_findings(paths: list[str], cwd: Path) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "nagle_lint", "--format", "json", *paths], cwd=cwd,
                          capture_output=True, text=True, timeout=60, env=env)
    return sum(1 for f in json.loads(proc.stdout)["findings"] if f["suppressed"] is None)


def test_action_is_a_composite_that_keeps_inputs_out_of_scripts():
    assert ACTION["runs"]["using"] == "composite"
    defaults = {name: spec.get("default") for name, spec in ACTION["inputs"].items()}
    assert defaults == {"paths": ".", "args": "", "sarif-file": "nagle-lint.sarif", "annotate": "true",
                        "fail-on-findings": "true", "diff-base": ""}
    assert set(ACTION["outputs"]) == {"sarif-file", "findings"}
    for step in ACTION["runs"]["steps"]:
        assert step["shell"] == "bash"
        assert "${{" not in step["run"], "expressions inside run: would be pasted into the script"
    assert "GITHUB_ACTION_PATH" in ACTION["runs"]["steps"][0]["run"]


def test_action_lints_annotates_and_sets_outputs(runner, workspace):
    proc, outputs = run_lint(runner, workspace, paths="fixtures/python")
    n = expected_findings(["fixtures/python"], workspace)
    assert n > 10
    assert proc.returncode == 1, proc.stdout + proc.stderr  # findings, and fail-on-findings is true
    annotations = commands(proc.stdout)
    assert len(annotations) == n
    assert {c for c, _ in annotations} <= {"warning", "notice"}
    assert all(re.match(r"^::(warning|notice) file=fixtures/python/[\w/]+\.py,line=\d+,", line) for _, line in annotations)
    assert re.search(rf"^nagle-lint: {n} findings \(", proc.stdout, re.M)
    assert outputs == {"sarif-file": "nagle-lint.sarif", "findings": str(n)}
    log = json.loads((workspace / "nagle-lint.sarif").read_text(encoding="utf-8"))
    validate_sarif(log)
    assert len(log["runs"][0]["results"]) == n


def test_action_inputs_change_what_it_does(runner, workspace):
    proc, outputs = run_lint(runner, workspace, paths="fixtures/python", annotate="false",
                             fail_on_findings="false", sarif_file="out/report.sarif", args="--select NGL002")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert commands(proc.stdout) == []
    n = expected_findings(["--select", "NGL002", "fixtures/python"], workspace)
    assert 0 < n and outputs == {"sarif-file": "out/report.sarif", "findings": str(n)}
    log = json.loads((workspace / "out" / "report.sarif").read_text(encoding="utf-8"))
    validate_sarif(log)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"NGL002"}


def test_action_reports_only_the_pull_requests_lines(runner, workspace):
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=workspace, check=True)
    subprocess.run([*git, "add", "-A"], cwd=workspace, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "base"], cwd=workspace, check=True)
    # What actions/checkout leaves for a pull request: the base branch as origin/<base_ref>.
    subprocess.run([*git, "update-ref", "refs/remotes/origin/main", "HEAD"], cwd=workspace, check=True)
    new = workspace / "fixtures" / "python" / "zz_new_client.py"
    shutil.copy(ROOT / "fixtures" / "python" / "split_write_client.py", new)
    proc, outputs = run_lint(runner, workspace, github={"base_ref": "main"}, paths="fixtures/python")
    expected = expected_findings([str(new.relative_to(workspace))], workspace)
    assert expected >= 1
    assert outputs["findings"] == str(expected), proc.stdout + proc.stderr
    assert all("zz_new_client.py" in line for _, line in commands(proc.stdout))
    # The explicit input wins over the pull request's base.
    proc, outputs = run_lint(runner, workspace, github={"base_ref": "main"}, paths="fixtures/python",
                             diff_base="HEAD", fail_on_findings="false")
    assert outputs["findings"] == str(expected) and proc.returncode == 0
    # "none": every finding, as a code-scanning upload needs.
    proc, outputs = run_lint(runner, workspace, github={"base_ref": "main"}, paths="fixtures/python",
                             diff_base="none", fail_on_findings="false")
    everything = expected_findings(["fixtures/python"], workspace)
    assert outputs["findings"] == str(everything) and everything > expected


def test_hostile_inputs_are_never_executed(runner, workspace):
    sarif = "report $(touch pwned5) `touch pwned6`; \"q\" 'r'.sarif\nfindings=999"

    def nothing_ran():
        found = [p for folder in (workspace.parent, runner.temp, runner.action_path, Path.cwd())
                 for p in folder.rglob("pwned*")]
        assert found == []

    proc, outputs = run_lint(runner, workspace, github={"base_ref": "$(touch${IFS}pwned7)"}, paths="fixtures/python",
                             sarif_file=sarif, args="--exit-zero --min-confidence 'high'", annotate="true")
    nothing_ran()
    assert proc.returncode == 2 and "could not fetch the pull request's base branch" in proc.stdout
    odd = ["$(touch pwned1)", "`touch pwned2`", "; touch pwned3", 'x"; touch pwned4; "', "a'b $HOME ${PATH} * ?"]
    proc, outputs = run_lint(runner, workspace, paths="\n".join(["fixtures/python", *odd]), sarif_file=sarif,
                             args="--exit-zero --min-confidence 'high'", annotate="true")
    nothing_ran()
    # The odd paths were taken literally: paths that do not exist, an error, told inside the fence.
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"nagle-lint: error: {', '.join(odd)}: no such file or directory" in proc.stdout
    assert [c for c, _ in commands(proc.stdout)] == ["error"]
    assert not any("touch" in line for _, line in commands(proc.stdout))
    # Made to exist, they are linted as any file (and not read as code: not Python, Java or C).
    for name in odd:
        (workspace / name).write_text("x = 1\n", encoding="utf-8")
    proc, outputs = run_lint(runner, workspace, paths="\n".join(["fixtures/python", *odd]), sarif_file=sarif,
                             args="--exit-zero --min-confidence 'high'", annotate="true")
    nothing_ran()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert outputs["sarif-file"] == sarif and outputs["findings"].isdigit() and outputs["findings"] != "999"
    validate_sarif(json.loads((workspace / sarif).read_text(encoding="utf-8")))
    assert commands(proc.stdout) and {c for c, _ in commands(proc.stdout)} <= {"warning", "notice"}
    assert not any("touch" in line for _, line in commands(proc.stdout))

    for args, diff_base in (("--select NGL001 $(touch pwned8) `touch pwned9` ${HOME}", ""),
                            ("--exit-zero; touch pwned10 && touch pwned11", ""), ("'unbalanced", ""),
                            ("", "$(touch pwned12)"), ("", "--output=pwned13")):
        proc, outputs = run_lint(runner, workspace, paths="fixtures/python", args=args, diff_base=diff_base)
        nothing_ran()
        # Taken as options and paths, never as commands: the run fails or lints what exists.
        assert proc.returncode in (1, 2), (args, diff_base, proc.stdout + proc.stderr)
        if proc.returncode == 2:
            assert "::error" in proc.stdout


def test_links_planted_in_the_checkout_lead_nowhere(runner, workspace, tmp_path):
    """The SARIF file, its folder and the result cache are where a pull
    request can plant links: none is followed out of the workspace, and the
    action keeps no cache in the checkout."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim").write_text("precious\n")
    os.symlink(outside / "victim", workspace / "nagle-lint.sarif")
    os.symlink(outside, workspace / "reports")
    os.symlink(outside, workspace / ".nagle_lint_cache")
    proc, _ = run_lint(runner, workspace, paths="fixtures/python")
    assert proc.returncode == 2 and "symbolic link to a file" in proc.stdout, proc.stdout + proc.stderr
    proc, _ = run_lint(runner, workspace, paths="fixtures/python", sarif_file="reports/x.sarif")
    assert proc.returncode == 2 and "leads out of the workspace" in proc.stdout
    assert sorted(p.name for p in outside.iterdir()) == ["victim"] and (outside / "victim").read_text() == "precious\n"
    (workspace / ".nagle_lint_cache").unlink()
    proc, outputs = run_lint(runner, workspace, paths="fixtures/python", sarif_file="out.sarif")
    assert proc.returncode == 1 and outputs["sarif-file"] == "out.sarif"
    assert not (workspace / ".nagle_lint_cache").exists()


@pytest.mark.parametrize(("args", "error"), [
    ("--format text", "the 'args' input cannot hold --format: the action writes SARIF"),
    ("--format=json --select NGL001", "the 'args' input cannot hold --format: the action writes SARIF"),
    ("--output-file out.txt", "the 'args' input cannot hold --output-file: use the 'sarif-file' input"),
    ("-qo out.txt", "the 'args' input cannot hold -o: use the 'sarif-file' input"),
    ("--select 'NGL001", "the 'args' input cannot be split like a command line (No closing quotation)"),
])
def test_args_that_would_make_the_sarif_step_impossible_are_refused(runner, workspace, args, error):
    proc, outputs = run_lint(runner, workspace, paths="fixtures/python", args=args)
    assert proc.returncode == 2
    [(command, line)] = commands(proc.stdout)
    assert command == "error" and line.startswith(f"::error title=nagle-lint::{error}"), line
    assert "Traceback" not in proc.stdout + proc.stderr
    assert outputs == {}


def test_args_that_only_look_like_the_refused_ones_are_taken(runner, workspace):
    proc, outputs = run_lint(runner, workspace, paths="fixtures/python", args="-qj2 --exit-zero --select NGL001")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert outputs["findings"].isdigit()


def test_a_pull_request_whose_base_cannot_be_fetched_fails_with_that_reason(runner, workspace):
    # Reporting every finding instead failed the pull request on findings it did not add.
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q"], cwd=workspace, check=True)
    subprocess.run([*git, "add", "-A"], cwd=workspace, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "base"], cwd=workspace, check=True)
    proc, outputs = run_lint(runner, workspace, github={"base_ref": "main"}, paths="fixtures/python")
    assert proc.returncode == 2
    [(command, line)] = commands(proc.stdout)
    assert command == "error" and "could not fetch the pull request's base branch" in line
    assert outputs == {}


def assert_a_ref_of_this_repository(ref: str) -> None:
    """What a README snippet pins (no release is tagged yet: a branch, or a commit's SHA) exists."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    found = [subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}"], cwd=ROOT,
                            capture_output=True).returncode == 0
             for name in (ref, f"origin/{ref}", f"refs/tags/{ref}")]
    assert any(found), f"{ref} names no ref of this repository"


def readme_yaml_blocks() -> list:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [yaml.safe_load(block) for block in re.findall(r"^```yaml\n(.*?)^```", text, re.S | re.M)]


def test_readme_workflows_use_the_action_as_it_is():
    workflows = [b for b in readme_yaml_blocks() if isinstance(b, dict) and "jobs" in b]
    assert workflows
    uploads = 0
    for wf in workflows:
        for job in wf["jobs"].values():
            ids = {}
            for step in job["steps"]:
                uses = step.get("uses", "")
                if uses.startswith("nagle-lint/nagle-lint@"):
                    assert_a_ref_of_this_repository(uses.partition("@")[2])
                    assert set(step.get("with", {})) <= set(ACTION["inputs"])
                    ids[step.get("id")] = step
                if uses.startswith("github/codeql-action/upload-sarif@"):
                    uploads += 1
                    assert job["permissions"]["security-events"] == "write"
                    m = re.fullmatch(r"\$\{\{ steps\.([\w-]+)\.outputs\.([\w-]+) \}\}", step["with"]["sarif_file"])
                    assert m and m.group(1) in ids and m.group(2) in ACTION["outputs"]
                    assert ids[m.group(1)]["with"].get("diff-base") == "none"
    assert uploads == 1
