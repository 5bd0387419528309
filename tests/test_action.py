"""The GitHub Action (`action.yml`): its metadata against GitHub's documented rules, and its shell
steps run as the runner runs them, against a sample plugin repository made here (an origin with
the released plugin on `main`, and a clone with a pull request's commit).

What cannot run here is checked by what it is given: the `uses:` steps (set-up, SARIF and
artifact uploads) are not executed, but the files they upload must exist after the shell steps.
The install step is not run either: the tests use the package already installed in this
environment, whose scripts are put on PATH.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO
from tests.gitrepo import commit_folder, git, new_repository

ACTION = REPO / "action.yml"
EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")
INPUT_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
WANTED_INPUTS = {"path", "submission", "strict", "run-examples", "base"}
SCRIPTS = Path(sys.executable).parent  # dify-registry of this environment


def action() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    return data


def test_metadata_follows_githubs_rules() -> None:
    """`name`, `description`, described `inputs` with valid ids, outputs with a `value`,
    `runs.using: composite` with steps, each step either `run` (with a `shell`) or `uses`."""
    data = action()
    assert isinstance(data["name"], str)
    assert data["name"]
    assert isinstance(data["description"], str)
    assert data["description"]
    inputs = data["inputs"]
    assert set(inputs) >= WANTED_INPUTS
    for name, spec in inputs.items():
        assert INPUT_ID.match(name), name
        assert isinstance(spec["description"], str), name
        assert isinstance(spec.get("default", ""), str), name
    for name, spec in data["outputs"].items():
        assert isinstance(spec["description"], str), name
        assert EXPRESSION.search(spec["value"]), name
    runs = data["runs"]
    assert runs["using"] == "composite"
    ids = [step["id"] for step in runs["steps"] if "id" in step]
    assert len(ids) == len(set(ids))
    for step in runs["steps"]:
        assert ("run" in step) != ("uses" in step), step
        if "run" in step:
            assert step["shell"] in ("bash", "sh", "pwsh", "python"), step
            # Values reach scripts through `env`: an expression inside a script is shell injection.
            assert "${{" not in step["run"], step.get("id")
        else:
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@v\d+", step["uses"]), step


def test_readme_example_uses_only_inputs_the_action_has() -> None:
    """The README's workflow uses this action with inputs it declares."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = [
        yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", readme, re.S) if "pull_request" in b
    ]
    assert len(blocks) == 1
    steps = blocks[0]["jobs"]["check"]["steps"]
    ours = [s for s in steps if "dify-registry" in s.get("uses", "") and "checkout" not in s["uses"]]
    assert len(ours) == 1
    assert set(ours[0].get("with", {})) <= set(action()["inputs"])
    assert blocks[0]["jobs"]["check"]["permissions"]["security-events"] == "write"


class Runner:
    """Runs the action's shell steps one after another as GitHub's runner does: `env` evaluated
    from inputs and earlier steps' outputs, `bash --noprofile --norc -eo pipefail`, GITHUB_OUTPUT
    read back after each step."""

    def __init__(self, workspace: Path, temp: Path, inputs: dict[str, str], event: dict[str, str]) -> None:
        self.workspace = workspace
        self.temp = temp
        defaults = {name: spec.get("default", "") for name, spec in action()["inputs"].items()}
        self.inputs = {**defaults, **inputs}
        self.event = event
        self.outputs: dict[str, dict[str, str]] = {}

    def value(self, expression: str) -> str:
        if expression.startswith("inputs."):
            return str(self.inputs[expression.removeprefix("inputs.")])
        if expression == "github.action_path":
            return str(REPO)
        match = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
        assert match, f"an expression this test does not know: {expression}"
        return self.outputs.get(match[1], {}).get(match[2], "")

    def evaluate(self, text: str) -> str:
        return EXPRESSION.sub(lambda m: self.value(m[1]), text)

    def run(self, step_id: str) -> subprocess.CompletedProcess[str]:
        step = next(s for s in action()["runs"]["steps"] if s.get("id") == step_id)
        output = self.temp / f"output-{step_id}"
        output.write_text("", encoding="utf-8")
        script = self.temp / f"{step_id}.sh"
        script.write_text(step["run"], encoding="utf-8")
        environment = {
            "PATH": f"{SCRIPTS}{os.pathsep}/usr/bin{os.pathsep}/bin",
            "HOME": str(self.temp),
            "RUNNER_TEMP": str(self.temp),
            "GITHUB_WORKSPACE": str(self.workspace),
            "GITHUB_ACTION_PATH": str(REPO),
            "GITHUB_OUTPUT": str(output),
            "NO_COLOR": "1",
            **self.event,
            **{name: self.evaluate(str(value)) for name, value in step.get("env", {}).items()},
        }
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=self.workspace,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        lines = output.read_text(encoding="utf-8").splitlines()
        self.outputs[step_id] = dict(line.split("=", 1) for line in lines if "=" in line)
        return done

    def upload_inputs(self) -> dict[str, dict[str, str]]:
        """What the `uses:` steps would be given (`with`, evaluated), by the action they use."""
        return {
            step["uses"].split("@")[0]: {k: self.evaluate(str(v)) for k, v in step.get("with", {}).items()}
            for step in action()["runs"]["steps"]
            if "uses" in step
        }


REQUIRED = """  - name: station
    type: string
    required: true
    form: form
    label:
      en_US: Station
    human_description:
      en_US: A weather station id.
"""


@pytest.fixture(scope="module")
def plugin_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An origin whose `main` holds weather_station at the top of the repository, and a clone on a
    pull request's branch that gives a tool a required parameter and keeps the version."""
    base = tmp_path_factory.mktemp("action")
    origin = new_repository(base / "origin")
    commit_folder(
        origin, REPO / "plugins" / "weather_station", "plugin", "release 0.2.0", "2026-03-01T10:00:00+00:00"
    )
    clone = base / "clone"
    git(base, "clone", "-q", str(origin), str(clone))
    git(clone, "checkout", "-q", "-b", "feature")
    tool = clone / "plugin" / "tools" / "current_weather.yaml"
    text = tool.read_text(encoding="utf-8")
    tool.write_text(text.replace("  - name: units\n", REQUIRED + "  - name: units\n", 1), encoding="utf-8")
    # The author gave the examples the new parameter too: the plugin itself is valid.
    examples = tool.with_name("current_weather.examples.yaml")
    text = examples.read_text(encoding="utf-8")
    examples.write_text(text.replace("    inputs:\n", "    inputs:\n      station: any\n"), encoding="utf-8")
    git(clone, "commit", "-q", "-am", "a required parameter", date="2026-03-02T10:00:00+00:00")
    return clone


def test_pull_request_validates_compares_and_builds(plugin_repository: Path, tmp_path: Path) -> None:
    """On a pull request: validation passes with a SARIF file, the comparison with the fetched base
    annotates the new required parameter and the unchanged version, the preview site is built, and
    the verdict fails the job."""
    event = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main", "GITHUB_HEAD_REF": "feature"}
    runner = Runner(plugin_repository, tmp_path, {"path": "plugin"}, event)
    validate = runner.run("validate")
    assert validate.returncode == 0, validate.stderr
    assert runner.outputs["validate"]["status"] == "0"
    sarif = Path(runner.outputs["validate"]["sarif"])
    assert '"version": "2.1.0"' in sarif.read_text(encoding="utf-8")
    compared = runner.run("diff")
    assert compared.returncode == 0, compared.stderr
    assert runner.outputs["diff"]["status"] == "1"
    assert "::warning file=plugin/tools/current_weather.yaml,line=33," in compared.stdout
    assert (
        "title=D012::breaking: tool weather_station/current_weather gained the required parameter station"
        in compared.stdout
    )
    assert (
        "title=D061::the plugin changed but its version is still 0.2.0. Hint: Release it as 0.3.0"
        in compared.stdout
    )
    built = runner.run("site")
    assert built.returncode == 0, built.stderr
    site = Path(runner.outputs["site"]["site"])
    assert (site / "plugins" / "weather_station" / "index.html").is_file()
    assert (site / "zh" / "plugins" / "weather_station" / "index.html").is_file()
    uploads = runner.upload_inputs()
    assert uploads["github/codeql-action/upload-sarif"]["sarif_file"] == str(sarif)
    assert uploads["actions/upload-artifact"]["path"] == str(site)
    assert uploads["actions/setup-python"]["python-version"] == "3.12"
    verdict = runner.run("verdict")
    assert verdict.returncode == 1
    assert "::error::dify-registry diff failed" in verdict.stdout


def test_push_without_base_skips_the_comparison(plugin_repository: Path, tmp_path: Path) -> None:
    """Outside a pull request there is nothing to compare with; a clean plugin passes."""
    runner = Runner(plugin_repository, tmp_path, {"path": "plugin"}, {"GITHUB_EVENT_NAME": "push"})
    assert runner.run("validate").returncode == 0
    compared = runner.run("diff")
    assert compared.returncode == 0
    assert "No base to compare with" in compared.stdout
    assert runner.run("verdict").returncode == 0


def test_base_input_compares_with_a_chosen_ref_and_strict_fails_breaking(
    plugin_repository: Path, tmp_path: Path
) -> None:
    """`base` names the ref to compare with on any event; an option-like ref is refused."""
    runner = Runner(
        plugin_repository, tmp_path, {"path": "plugin", "base": "main"}, {"GITHUB_EVENT_NAME": "push"}
    )
    assert runner.run("diff").returncode == 0
    assert runner.outputs["diff"]["status"] == "1"
    hostile = Runner(plugin_repository, tmp_path, {"path": "plugin", "base": "--upload-pack=touch x"}, {})
    refused = hostile.run("diff")
    assert refused.returncode == 2
    assert "is not a ref" in refused.stdout
    assert not (plugin_repository / "x").exists()
