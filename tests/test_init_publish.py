"""`dify-registry init` as a new maintainer uses it: the set-up it writes for a collection in a git
repository (fetched at a ref) and a folder of the maintainer's repository passes actionlint, and
its workflow, run here with processes as runners (two shards at once, each in its own workspace,
the artifacts passed as folders), publishes a site served from a folder of its server: the merge
leaves nothing to run again, `check-site` finds no problem, and the findings of a plugin the
maintainer does not own (a tool whose module does not import: `run` exits 1) do not stop it.

What cannot run here is replaced by what it does: checkout (a copy of the repository), the Python
set-up and caches (this environment), the install step (this environment's `dify-registry` on
PATH), artifact upload and download (folders).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
import yaml

from generator.publishing import WORKFLOW_PATH, Collection, parse_collection
from tests.conftest import LOCAL, REPO
from tests.gitrepo import git, new_repository
from tests.publishing import SCRIPTS, command
from tests.sitebuild import QuietHandler, serve

SITE_URL = "https://example.github.io/registry/"
FOLDER = "/registry/"  # the path of SITE_URL, where the local server serves the site
BROKEN = REPO / "tests" / "cases" / "run" / "import_crash"  # `run` exits 1: an error in its tool


def _steps_env(workflow: Mapping[Any, Any], job: Mapping[str, Any], shard: int) -> dict[str, str]:
    values = {**workflow.get("env", {}), **job.get("env", {})}
    return {k: str(v).replace("${{ matrix.shard }}", str(shard)) for k, v in values.items()}


def _run_job(
    workflow: Mapping[Any, Any], name: str, workspace: Path, artifacts: Path, shard: int = 0
) -> dict[str, subprocess.CompletedProcess[str]]:
    """The job's steps in `workspace` as a runner runs them; each shell step's result by its name."""
    job = workflow["jobs"][name]
    environment = {
        **os.environ,
        "PATH": f"{SCRIPTS}{os.pathsep}{os.environ['PATH']}",
        "NO_COLOR": "1",
        **_steps_env(workflow, job, shard),
    }
    done: dict[str, subprocess.CompletedProcess[str]] = {}
    for step in job["steps"]:
        uses = step.get("uses", "").split("@")[0]
        if uses == "actions/upload-artifact":
            source = workspace / "shard-cache"
            shutil.copytree(
                source, artifacts / f"runs-{shard}", ignore=lambda folder, names: ["envs", "overlays"]
            )
        elif uses == "actions/download-artifact":
            shutil.copytree(artifacts, workspace / step["with"]["path"])
        if "run" not in step or "pip install" in step["run"]:
            continue
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=workspace,
            env={**environment, **{k: str(v) for k, v in step.get("env", {}).items()}},
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
        done[step.get("name", step["run"])] = result
        assert result.returncode == 0, (
            f"{name}/{step.get('name')}: {result.stdout[-3000:]}{result.stderr[-3000:]}"
        )
    return done


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The maintainer's repository after `init`: a folder of plugins of its own, and a collection
    in another git repository (a branch named in the URL)."""
    base = tmp_path_factory.mktemp("init")
    upstream = new_repository(base / "upstream")
    shutil.copytree(REPO / "plugins" / "scratchpad", upstream / "tools" / "scratchpad")
    shutil.copytree(BROKEN, upstream / "tools" / "import_crash")
    git(upstream, "add", "-A")
    git(upstream, "commit", "-q", "-m", "plugins")
    git(upstream, "branch", "release")
    own = base / "maintainer"
    shutil.copytree(REPO / "plugins" / "weather_station", own / "mine" / "weather_station")
    (own / "README.md").write_text("# My catalog\n\nWhat it is.\n", encoding="utf-8")
    source = f"git+file://{upstream}@release#subdirectory=tools"
    done = command("init", ".", source, "mine", "--site-url", SITE_URL, "--shards", "2", cwd=own)
    assert done.returncode == 0, done.stderr
    return own


def test_the_written_workflow_passes_actionlint(repository: Path) -> None:
    done = subprocess.run(
        [str(SCRIPTS / "actionlint"), "-no-color", str(repository / WORKFLOW_PATH)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_readme_keeps_its_text_and_gains_one_section(repository: Path, tmp_path: Path) -> None:
    readme = (repository / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# My catalog\n\nWhat it is.\n")
    assert readme.count("## Publishing the catalog") == 1
    copy = shutil.copytree(repository, tmp_path / "again")
    again = command("init", ".", "mine", "--site-url", SITE_URL, cwd=copy)
    assert again.returncode == 0, again.stderr
    rewritten = (copy / "README.md").read_text(encoding="utf-8")
    assert rewritten.count("## Publishing the catalog") == 1  # replaced, not added again
    assert "collections/" not in rewritten
    assert "collections/" not in (copy / WORKFLOW_PATH).read_text(encoding="utf-8")
    for wrong in (["git+x"], ["/abs"], ["../up"], ["missing"], ["mine", "--shards", "0"]):
        done = command("init", ".", *wrong, "--site-url", SITE_URL, cwd=copy)
        assert done.returncode == 2, (wrong, done.stderr)


def test_the_run_step_accepts_findings_and_stops_on_a_broken_registry(
    repository: Path, tmp_path: Path
) -> None:
    """The step's own shell: `run` exiting 1 (findings) passes, 3 (broken registry) and 2 fail."""
    workflow = yaml.safe_load((repository / WORKFLOW_PATH).read_text(encoding="utf-8"))
    step = next(s for s in workflow["jobs"]["shard"]["steps"] if s.get("name") == "Run this shard's tools")
    fake = tmp_path / "bin"
    fake.mkdir()
    for code, passes in ((0, True), (1, True), (2, False), (3, False)):
        program = fake / "dify-registry"
        program.write_text(f"#!/bin/sh\nexit {code}\n", encoding="utf-8")
        program.chmod(0o755)
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            env={**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}", "SHARD": "1/2"},
            capture_output=True,
            check=False,
        )
        assert (done.returncode == 0) is passes, code


@dataclass(frozen=True)
class Published:
    """What the written workflow's jobs left: the runs each shard uploaded, the site job's
    workspace and each of its shell steps' results."""

    runs: frozenset[str]
    workspace: Path
    steps: dict[str, subprocess.CompletedProcess[str]]
    shard_output: tuple[str, ...]


@pytest.fixture(scope="module")
def published(repository: Path, tmp_path_factory: pytest.TempPathFactory) -> Published:
    """The written workflow run: two shard runners at once, then the site job."""
    workflow = yaml.safe_load((repository / WORKFLOW_PATH).read_text(encoding="utf-8"))
    base = tmp_path_factory.mktemp("runners")
    artifacts = base / "artifacts"
    artifacts.mkdir()

    def runner(shard: int) -> dict[str, subprocess.CompletedProcess[str]]:
        workspace = shutil.copytree(repository, base / f"runner-{shard}")
        return _run_job(workflow, "shard", workspace, artifacts, shard)

    with ThreadPoolExecutor(2) as pool:
        shards = list(pool.map(runner, (1, 2)))
    runs = frozenset(p.name for i in (1, 2) for p in (artifacts / f"runs-{i}" / "runs").iterdir())
    workspace = shutil.copytree(repository, base / "runner-site")
    steps = _run_job(workflow, "site", workspace, artifacts)
    output = tuple(shard["Run this shard's tools"].stdout for shard in shards)
    return Published(runs, workspace, steps, output)


def test_the_workflow_publishes_under_a_folder_of_the_server(repository: Path, published: Published) -> None:
    workflow = yaml.safe_load((repository / WORKFLOW_PATH).read_text(encoding="utf-8"))
    assert workflow["env"]["SITE_URL"] == SITE_URL
    assert all(published.shard_output), "each shard ran some plugin"
    assert published.runs
    merged = published.workspace / ".dify-registry-cache"
    assert {p.name for p in (merged / "runs").iterdir()} == published.runs, "the build ran nothing again"
    assert not (merged / "envs").exists(), "the build built no environment"
    assert published.steps["Check the site"].stderr.strip() == "site: 0 problems"
    site = published.workspace / "site"
    assert (site / "plugins" / "import_crash" / "index.html").is_file()  # shown, findings and all
    assert (site / "ja" / "plugins" / "weather_station" / "index.html").is_file()


class _UnderAFolder(QuietHandler):
    """Serves the site at /registry/ of its server, and its 404.html at any missing address of
    that folder, as GitHub Pages serves a project's site."""

    def translate_path(self, path: str) -> str:
        if not path.startswith(FOLDER):
            return "/nonexistent"
        return str(Path(self.directory) / urlsplit(path).path.removeprefix(FOLDER))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code != HTTPStatus.NOT_FOUND:
            super().send_error(code, message, explain)
            return
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.mark.browser
@pytest.mark.slow
def test_the_published_site_works_under_its_folder_in_two_languages(page: Any, published: Published) -> None:
    """Home, a tool page through the language selector, and the 404 pages: every request to the
    site's server is answered (the theme's assets from the folder), in English and Japanese."""
    missing: list[str] = []

    def answered(response: Any) -> None:
        # the missing address itself is answered 404 with the 404 page, as the host does
        if response.status >= 400 and response.request.resource_type != "document":
            missing.append(response.url)

    def failed(request: Any) -> None:
        # a request cut short because the page was left is no failure of the site
        if request.url.startswith(LOCAL) and "ERR_ABORTED" not in (request.failure or ""):
            missing.append(f"{request.url} {request.failure}")

    page.on("response", answered)
    page.on("requestfailed", failed)
    with serve(published.workspace / "site", _UnderAFolder, FOLDER) as base:
        page.goto(base)
        assert page.locator("html").get_attribute("lang") == "en"
        page.goto(base + "plugins/weather_station/")
        page.locator(".md-header__option .md-select").hover()
        page.locator('.md-select__list a[hreflang="ja"]').click()
        page.wait_for_url(base + "ja/plugins/weather_station/")
        assert page.locator("html").get_attribute("lang") == "ja"
        page.locator(".md-header__option .md-select").hover()
        page.locator('.md-select__list a[hreflang="en"]').click()
        page.wait_for_url(base + "plugins/weather_station/")
        for address in ("no/such/page/", "ja/404.html"):
            page.goto(base + address)
            # the theme's stylesheet applies: the header is laid out, not a list of links
            header = page.locator("header.md-header")
            assert page.evaluate("h => getComputedStyle(h).position", header.element_handle()) != "static"
            english = page.locator('.md-select__list a[hreflang="en"]').get_attribute("href") or ""
            assert urljoin(page.url, english).startswith(base), english
            assert not urljoin(page.url, english).startswith(base + "ja/"), english
    assert missing == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plugins/", Collection("plugins")),
        (
            "git+https://github.com/o/r.git@v1.2",
            Collection("collections/r", "https://github.com/o/r.git", "v1.2", "collections/r"),
        ),
        ("git+https://h/o/r", Collection("collections/r", "https://h/o/r", "HEAD", "collections/r")),
        (
            "git+ssh://git@h/o/r.git@main#subdirectory=tools",
            Collection("collections/r/tools", "ssh://git@h/o/r.git", "main", "collections/r"),
        ),
        (
            "git+git@h:o/r.git@0123abc",
            Collection("collections/r", "git@h:o/r.git", "0123abc", "collections/r"),
        ),
    ],
)
def test_a_collection_is_a_folder_or_a_git_url_at_a_ref(text: str, expected: Collection) -> None:
    assert parse_collection(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "/abs",
        "..",
        "../up",
        "git+x",
        "git+https://h/o/r#egg=x",
        "git+https://h/o/r#subdirectory=../..",
        "git+https://h/o/r#subdirectory=../rx",
    ],
)
def test_what_is_no_collection(text: str) -> None:
    with pytest.raises(ValueError, match=r"git|folder|subdirectory|fragment"):
        parse_collection(text)


def test_the_readmes_local_steps_fetch_the_collection_first(repository: Path, tmp_path: Path) -> None:
    """The README's "same steps on your machine" start by fetching the git collection where the
    workflow puts it, so the commands after them find its plugins."""
    readme = (repository / "README.md").read_text(encoding="utf-8")
    block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    fetches = [line for line in block.splitlines() if line.startswith("git ")]
    assert len(fetches) == 1, block
    copy = shutil.copytree(repository, tmp_path / "local")
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", fetches[0]], cwd=copy, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    paths = block.split("dify-registry run ", 1)[1].split(" --shard", 1)[0].split()
    assert (copy / paths[0] / "scratchpad" / "manifest.yaml").is_file(), paths
