"""The publishing workflows (`.github/workflows/`): actionlint finds nothing in them, each of their
shell steps is one `make` or `dify-registry` command, and the publish job's steps, run here as the
runner runs them on a copy of the registry, leave the site the Pages artifact uploads, checked by
`check-site`; that check fails on a planted broken link, a schema served with other bytes, and a
path of the building machine.

What cannot run here is checked by what it is given: the `uses:` steps (checkout, set-up, caches,
uploads, deployment) are not executed, but the folder the Pages artifact uploads must exist after
the shell steps. The set-up step (`make setup`) is not run either: the workspace uses this
environment's `.venv`, which make is told not to remake.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO
from tests.publishing import SCRIPTS, command, registry_copy

WORKFLOWS = REPO / ".github" / "workflows"
PUBLISH = WORKFLOWS / "publish.yml"
SETUP = "make setup"


def workflow(path: Path) -> dict[Any, Any]:
    data: dict[Any, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def test_workflows_pass_actionlint() -> None:
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert files
    done = subprocess.run(
        [str(SCRIPTS / "actionlint"), "-no-color", *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("path", sorted(WORKFLOWS.glob("*.yml")), ids=lambda p: p.name)
def test_each_shell_step_is_one_make_or_dify_registry_command(path: Path) -> None:
    for job in workflow(path)["jobs"].values():
        for step in job["steps"]:
            if "run" not in step:
                continue
            script = step["run"].strip()
            assert "\n" not in script, step
            assert re.match(r"(make |\.venv/bin/dify-registry )", script), step
            # values reach scripts through `env`: an expression inside a script is shell injection
            assert "${{" not in script, step


def test_the_sharded_workflow_runs_every_shard_of_its_matrix() -> None:
    jobs = workflow(WORKFLOWS / "publish-sharded.yml")["jobs"]
    shards = jobs["shard"]["strategy"]["matrix"]["shard"]
    assert jobs["shard"]["env"]["SHARD"] == "${{ matrix.shard }}/" + str(len(shards))
    assert shards == list(range(1, len(shards) + 1))
    steps = [step.get("run", "") for step in jobs["site"]["steps"]]
    assert any(" cache merge " in step for step in steps)
    assert steps.index("make site") > next(i for i, s in enumerate(steps) if " cache merge " in s)


def test_the_publish_workflow_deploys_what_it_built() -> None:
    data = workflow(PUBLISH)
    triggers = data[True]  # YAML 1.1 reads the key `on` as true
    assert set(triggers) == {"push", "workflow_dispatch"}
    assert triggers["push"]["branches"] == ["main"]
    build, deploy = data["jobs"]["build"], data["jobs"]["deploy"]
    uses = [step.get("uses", "").split("@")[0] for step in build["steps"]]
    assert uses.count("actions/cache") == 2
    cached = {s["with"]["path"] for s in build["steps"] if s.get("uses", "").startswith("actions/cache@")}
    assert cached == {"~/.cache/uv", ".dify-registry-cache"}
    assert uses[-1] == "actions/upload-pages-artifact"
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["steps"][-1]["uses"].startswith("actions/deploy-pages@")


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the registry after the publish job's shell steps: the folder the artifact uploads."""
    plugins = ("weather_station", "scratchpad")
    workspace = registry_copy(tmp_path_factory.mktemp("publish") / "repository", plugins)
    (workspace / ".venv").symlink_to(SCRIPTS.parent, target_is_directory=True)
    build = workflow(PUBLISH)["jobs"]["build"]
    environment = {
        **os.environ,
        "NO_COLOR": "1",
        "MAKEFLAGS": "--old-file=.venv/.installed-stamp",  # never reinstall the shared .venv
    }
    for step in build["steps"]:
        if "run" not in step or step["run"].strip() == SETUP:
            continue
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=workspace,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
        assert done.returncode == 0, f"{step.get('name')}: {done.stdout[-2000:]}{done.stderr[-2000:]}"
    pages = "actions/upload-pages-artifact@"
    artifact = next(s for s in build["steps"] if s.get("uses", "").startswith(pages))
    return workspace / str(artifact["with"]["path"])


def test_the_publish_job_leaves_the_pages_artifact(published: Path) -> None:
    assert (published / "index.html").is_file()
    assert (published / "index.json").is_file()
    served = published / "schemas" / "v1" / "tool.json"
    assert served.read_bytes() == (REPO / "schemas/v1/tool.json").read_bytes()
    assert (published / "plugins" / "weather_station" / "index.html").is_file()


def _planted(site: Path, target: Path, plant: Any) -> subprocess.CompletedProcess[str]:
    """check-site on a copy of the site with one problem planted; the registry is the site's."""
    shutil.copytree(site, target)
    plant(target)
    return command("check-site", str(target), "--registry", str(site.parent), cwd=site.parent)


def test_check_site_passes_on_the_published_site(published: Path) -> None:
    done = command("check-site", str(published), cwd=published.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


def test_check_site_finds_a_broken_link(published: Path, tmp_path: Path) -> None:
    def plant(site: Path) -> None:
        page = site / "about" / "index.html"
        link = '<a href="../plugins/gone/">x</a></body>'
        page.write_text(page.read_text(encoding="utf-8").replace("</body>", link), encoding="utf-8")

    done = _planted(published, tmp_path / "site", plant)
    assert done.returncode == 1
    assert done.stdout.splitlines() == ["about/index.html: broken link ../plugins/gone/"]


def test_check_site_finds_a_schema_served_with_other_bytes(published: Path, tmp_path: Path) -> None:
    def plant(site: Path) -> None:
        served = site / "schemas" / "v1" / "file.json"
        served.write_bytes(served.read_bytes().replace(b'"', b"'", 1).replace(b"'", b'"', 1) + b"\n")

    done = _planted(published, tmp_path / "site", plant)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "schemas/v1/file.json: served with other bytes than its source file schemas/v1/file.json"
    ]


def test_check_site_finds_a_path_of_the_machine(published: Path, tmp_path: Path) -> None:
    repository = published.parent

    def plant(site: Path) -> None:
        page = site / "index.html"
        page.write_text(page.read_text(encoding="utf-8") + f"<!-- built in {repository}/plugins -->")

    done = _planted(published, tmp_path / "site", plant)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [f"index.html: names the build machine's path {repository}"]
