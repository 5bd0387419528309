"""Plugin environments unlike Dify's: local wheels and nested files read from the plugin root,
paths that leave the plugin refused, source distributions built in the build sandbox (and a hostile
one contained), unreachable indexes named quickly, uv's errors on one readable line."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import tarfile
import time
import uuid
import zipfile
from pathlib import Path

import pytest
import yaml

from generator.errors import BrokenRegistry
from generator.findings import Finding
from generator.interpreters import find_interpreters
from generator.load.crawl import load_plugin
from generator.run import RunOptions, RunReport, all_findings, envbuild, own_failure, run_plugins
from generator.run.sandbox import detect_isolation
from generator.run.share import STORE
from tests.conftest import REPO
from tests.hostile import processes_mentioning

CASE = REPO / "tests" / "cases" / "run" / "local_wheel"
WHEEL = "wheels/dify_registry_case_wheel-1.0-py2.py3-none-any.whl"
SECRET = "dify-registry-build-secret-value"
ISOLATED = detect_isolation(None).namespaces

TOOL = """from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
{body}
"""


def plugin(folder: Path, requirements: str, body: str = "") -> Path:
    """The local_wheel case copied to `folder` with other requirements and tool body."""
    shutil.copytree(CASE, folder)
    (folder / "requirements.txt").write_text(requirements)
    if body:
        (folder / "tools" / "case.py").write_text(TOOL.format(body=body))
        (folder / "tools" / "case.examples.yaml").write_text("examples:\n- name: run\n  inputs: {}\n")
    return folder


def yields(module: str, name: str) -> str:
    """A tool body that returns `name` imported from `module` as its text."""
    return f"        from {module} import {name}\n\n        yield self.create_text_message({name})"


def run(root: Path, cache: Path, isolate: bool | None = None) -> tuple[RunReport, list[Finding]]:
    options = RunOptions(cache_dir=cache, jobs=1, isolate=isolate)
    report = run_plugins([load_plugin(root, "case")], options)
    return report, all_findings(report)


def sdist(folder: Path, name: str, module: str, setup_py: str = "", version: str = "1.0") -> Path:
    """A source distribution (setuptools backend, no wheel anywhere), written by hand."""
    base = f"{name}-{version}"
    files = {
        "PKG-INFO": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        "pyproject.toml": (
            '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n'
            f'[project]\nname = "{name}"\nversion = "{version}"\n\n[tool.setuptools]\npackages = ["{name}"]\n'
        ),
        f"{name}/__init__.py": module,
    }
    if setup_py:
        files["setup.py"] = setup_py
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / f"{base}.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for relative, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{base}/{relative}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return archive


@pytest.mark.parametrize(
    "requirements",
    [
        f"dify_plugin==0.10.2\n./{WHEEL}\n",
        "dify_plugin==0.10.2\n--find-links ./wheels\ndify_registry_case_wheel==1.0\n",
        "dify_plugin==0.10.2\n-f wheels\ndify_registry_case_wheel==1.0\n",
    ],
    ids=["path", "find-links", "f"],
)
def test_local_wheel_is_read_from_the_plugin_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, requirements: str
) -> None:
    """Relative paths resolve from the plugin root whatever the working folder."""
    root = plugin(tmp_path / "plugin", requirements)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    report, findings = run(root, tmp_path / "cache")
    assert [r.passed for r in report.runs] == [True], findings
    assert report.runs[0].outputs["text"] == "from a shipped wheel"


def test_paths_leaving_the_plugin_are_not_followed(tmp_path: Path) -> None:
    """Absolute paths, `..`, `~`, variables and links out of the plugin: one error per line."""
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copy(CASE / WHEEL, outside)
    root = plugin(
        tmp_path / "plugin",
        "dify_plugin==0.10.2\n"
        f"{outside}/dify_registry_case_wheel-1.0-py2.py3-none-any.whl\n"
        "../outside/dify_registry_case_wheel-1.0-py2.py3-none-any.whl\n"
        "--find-links ../outside\n"
        "-r ../outside/more.txt\n"
        "pkg @ file:///etc/passwd\n"
        "~/wheels/x.whl\n"
        "${HOME}/x.whl\n"
        "-f linked\n",
    )
    (root / "linked").symlink_to(outside)
    report, findings = run(root, tmp_path / "cache")
    refused = [(f.file, f.line, f.severity.value) for f in findings if f.rule == "R041"]
    assert refused == [("case/requirements.txt", line, "error") for line in range(2, 10)], findings
    assert report.runs == ()
    assert not (tmp_path / "cache" / "envs").exists() or not any((tmp_path / "cache" / "envs").iterdir())


def test_unreachable_index_is_named_quickly(tmp_path: Path) -> None:
    """An index nobody listens on is a warning naming its URL and line, in seconds, not uv's retries."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/simple"
    root = plugin(tmp_path / "plugin", f"dify_plugin==0.10.2\n--extra-index-url {url}\n")
    started = time.monotonic()
    report, findings = run(root, tmp_path / "cache")
    took = time.monotonic() - started
    found = [f for f in findings if f.rule == "R040"]
    assert [(f.file, f.line, f.column, f.severity.value) for f in found] == [
        ("case/requirements.txt", 2, 19, "warning")
    ]
    assert url in found[0].message
    assert "R009" not in {f.rule for f in findings}
    assert report.runs == ()
    assert took < 6


def test_credentials_in_an_index_url_are_not_shown(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = plugin(tmp_path / "plugin", f"-i http://user:hunter2@127.0.0.1:{port}/simple\ndify_plugin\n")
    _report, findings = run(root, tmp_path / "cache")
    [found] = [f for f in findings if f.rule == "R040"]
    assert "hunter2" not in found.message
    assert f"http://***@127.0.0.1:{port}/simple" in found.message


def test_uv_errors_read_as_one_line(tmp_path: Path) -> None:
    """uv's multi-line error reaches the finding as text, not as escaped newlines."""
    root = plugin(tmp_path / "plugin", "dify_plugin==0.10.2\ndify-registry-no-such-package==1.0\n")
    _report, findings = run(root, tmp_path / "cache")
    [broken] = [f for f in findings if f.rule == "R009"]
    assert "\\u000a" not in broken.message
    assert "\n" not in broken.message
    assert "unsatisfiable" in broken.message
    # on the requirement uv names, not on the manifest
    assert (broken.file, broken.line, broken.column) == ("case/requirements.txt", 2, 1)


@pytest.mark.parametrize(
    "requirements",
    [
        "dify_plugin==0.10.2\n--find-links ./wheels\ndify_registry_case_wheel==1.0\n",
        "./wheels/x-1.0-py3-none-any.whl\n",
    ],
    ids=["find-links", "wheel"],
)
def test_missing_local_paths_are_named(tmp_path: Path, requirements: str) -> None:
    """A folder or wheel the plugin does not ship (uv: "relative URL without a base") is named."""
    root = plugin(tmp_path / "plugin", requirements)
    shutil.rmtree(root / "wheels")
    report, findings = run(root, tmp_path / "cache")
    [missing] = [f for f in findings if f.rule == "R041"]
    assert "the plugin ships no" in missing.message
    assert "R009" not in {f.rule for f in findings}
    assert report.runs == ()


needs_isolation = pytest.mark.skipif(not ISOLATED, reason="building needs root and util-linux unshare")


@needs_isolation
@pytest.mark.parametrize(
    "requirements",
    [
        "dify_plugin==0.10.2\n./vendor/dify_registry_case_sdist-1.0.tar.gz\n",
        "dify_plugin==0.10.2\n--find-links ./vendor\ndify_registry_case_sdist==1.0\n",
    ],
    ids=["path", "find-links"],
)
def test_source_distribution_is_built(tmp_path: Path, requirements: str) -> None:
    """A dependency that exists only as an sdist is built; changing it rebuilds the environment."""
    root = plugin(tmp_path / "plugin", requirements, yields("dify_registry_case_sdist", "VALUE"))
    sdist(root / "vendor", "dify_registry_case_sdist", 'VALUE = "built from source"\n')
    report, findings = run(root, tmp_path / "cache")
    assert [r.passed for r in report.runs] == [True], findings
    assert report.runs[0].outputs["text"] == "built from source"
    sdist(root / "vendor", "dify_registry_case_sdist", 'VALUE = "changed"\n')
    report, findings = run(root, tmp_path / "cache")
    assert report.runs[0].outputs["text"] == "changed", findings
    assert len(list((tmp_path / "cache" / "envs").glob("*.lock"))) == 2


def wheel(folder: Path, name: str, module: str, version: str) -> Path:
    """A pure-Python wheel, written by hand."""
    info = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": module.encode(),
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    rows = [f"{path},sha256={_urlsafe_sha256(data)},{len(data)}" for path, data in files.items()]
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(archive, "w") as packed:
        for path, data in files.items():
            packed.writestr(path, data)
        packed.writestr(f"{info}/RECORD", "\n".join([*rows, f"{info}/RECORD,,"]) + "\n")
    return archive


def _urlsafe_sha256(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


@needs_isolation
def test_without_a_lock_the_newest_version_is_built_as_dify_builds_it(tmp_path: Path) -> None:
    """An unpinned requirement whose newest version is only a source distribution gets that version
    (as Dify's install does), not an older one that has a wheel."""
    root = plugin(
        tmp_path / "plugin",
        "dify_plugin==0.10.2\n--find-links ./vendor\ndify_registry_case_versions\n",
        yields("dify_registry_case_versions", "VALUE"),
    )
    wheel(root / "vendor", "dify_registry_case_versions", 'VALUE = "wheel 1.0"\n', "1.0")
    sdist(root / "vendor", "dify_registry_case_versions", 'VALUE = "source 2.0"\n', version="2.0")
    report, findings = run(root, tmp_path / "cache")
    assert [r.outputs.get("text") for r in report.runs] == ["source 2.0"], findings


def test_without_isolation_only_wheels_are_installed(tmp_path: Path) -> None:
    """Where the build cannot be isolated, the sdist is refused, never built as the caller."""
    root = plugin(tmp_path / "plugin", "dify_plugin==0.10.2\n./vendor/dify_registry_case_sdist-1.0.tar.gz\n")
    marker = tmp_path / "built-as-caller"
    sdist(
        root / "vendor",
        "dify_registry_case_sdist",
        "",
        f"from pathlib import Path\nPath({str(marker)!r}).write_text('ran')\n"
        "from setuptools import setup\nsetup()\n",
    )
    report, findings = run(root, tmp_path / "cache", isolate=False)
    [broken] = [f for f in findings if f.rule == "R009"]
    assert "Building source distributions is disabled" in broken.message
    assert report.runs == ()
    assert not marker.exists()


HOSTILE_SETUP = """
import json, os
from pathlib import Path

seen = {{"uid": os.getuid(), "gid": os.getgid(), "secret": os.environ.get("DIFY_REGISTRY_TEST_SECRET"),
        "variables": sorted(os.environ), "writes": {{}}}}
for target in {targets!r}:
    try:
        Path(target).write_text("escaped")
        seen["writes"][target] = "written"
    except OSError as problem:
        seen["writes"][target] = type(problem).__name__
Path("dify_registry_case_hostile/seen.py").write_text("SEEN = " + repr(json.dumps(seen)) + "\\n")

from setuptools import setup
setup()
"""


@needs_isolation
def test_hostile_build_is_contained(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A setup.py that writes outside the environment and reads the caller's variables: it runs as
    an unprivileged uid, sees none of the caller's variables, writes only into private folders,
    and the environment it leaves is root's and writable by nobody else."""
    tag = uuid.uuid4().hex[:8]
    cache = tmp_path / "cache"
    root = plugin(
        tmp_path / "plugin",
        "dify_plugin==0.10.2\n./vendor/dify_registry_case_hostile-1.0.tar.gz\n",
        yields("dify_registry_case_hostile.seen", "SEEN"),
    )
    shared = [f"{folder}/dify-registry-build-{tag}" for folder in ("/tmp", "/var/tmp", "/dev/shm")]
    targets = [
        *shared,
        str(Path.home() / f"dify-registry-build-{tag}"),
        str(root / f"written-{tag}"),
        str(cache / f"written-{tag}"),
        str(cache / "envs" / f"written-{tag}"),
        str(REPO / f"written-{tag}"),
    ]
    sdist(root / "vendor", "dify_registry_case_hostile", "", HOSTILE_SETUP.format(targets=targets))
    monkeypatch.setenv("DIFY_REGISTRY_TEST_SECRET", SECRET)
    report, findings = run(root, cache)
    assert [r.passed for r in report.runs] == [True], findings
    seen = json.loads(report.runs[0].outputs["text"])
    assert seen["uid"] != 0
    assert seen["gid"] != 0
    assert seen["secret"] is None
    assert "DIFY_REGISTRY_TEST_SECRET" not in seen["variables"]
    # the private /tmp, /var/tmp and /dev/shm take the writes; they never reach the machine's
    assert [seen["writes"].pop(path) for path in shared] == ["written"] * 3
    assert set(seen["writes"].values()) <= {"PermissionError", "FileNotFoundError", "OSError"}, seen["writes"]
    assert [t for t in targets if Path(t).exists()] == []
    [environment] = [p for p in (cache / "envs").iterdir() if p.is_dir()]
    for folder, dirs, files in os.walk(environment):
        for name in [".", *dirs, *files]:
            info = (Path(folder) / name).lstat()
            assert info.st_uid == 0, Path(folder) / name
            if not stat.S_ISLNK(info.st_mode):
                assert not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH | stat.S_ISUID), Path(folder) / name
    assert not (environment / ".build").exists()


LEAVES_PROCESS = REPO / "tests" / "cases" / "run" / "build_leaves_process"


@needs_isolation
def test_build_leaving_a_process_ends_in_seconds(tmp_path: Path) -> None:
    """A build script that leaves a process running (holding uv's pipe to the build backend): the
    leftover is ended as soon as no backend runs, the build finishes, nothing survives it."""
    started = time.monotonic()
    report, findings = run(LEAVES_PROCESS, tmp_path / "cache")
    took = time.monotonic() - started
    assert [r.passed for r in report.runs] == [True], findings
    assert report.runs[0].outputs["text"] == "built"
    assert took < 120, took
    assert processes_mentioning("dify-registry-outliving-child-marker") == []


@needs_isolation
def test_stalled_build_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that does nothing at all (a build script sleeping) is stopped long before the
    build's time limit, and said so; none of its processes survive."""
    monkeypatch.setattr(envbuild, "BUILD_STALL", 4.0)
    root = plugin(tmp_path / "plugin", "dify_plugin==0.10.2\n./vendor/dify_registry_case_stall-1.0.tar.gz\n")
    sdist(root / "vendor", "dify_registry_case_stall", "", "import time\ntime.sleep(3600)\n")
    started = time.monotonic()
    report, findings = run(root, tmp_path / "cache")
    took = time.monotonic() - started
    [broken] = [f for f in findings if f.rule == "R009"]
    assert "made no progress for 4 s" in broken.message
    assert report.runs == ()
    assert took < 90, took


ENVIRONMENT_CASES = REPO / "tests" / "cases" / "environments"


@pytest.mark.parametrize("name", sorted(p.name for p in ENVIRONMENT_CASES.iterdir() if p.is_dir()))
def test_environment_case(tmp_path: Path, name: str) -> None:
    """Each case under tests/cases/environments/ builds (or refuses) as Dify's daemon does: its
    expected findings (and no other error), its runs passed or not."""
    expected = yaml.safe_load((ENVIRONMENT_CASES / name / "expected.yaml").read_text())
    needs = expected.get("needs_python")
    if needs and needs not in {found.name for found in find_interpreters()}:
        pytest.skip(f"the case needs a Python {needs} interpreter on this machine (pyenv install {needs})")
    report, findings = run(ENVIRONMENT_CASES / name, tmp_path / "cache")
    rules = {f.rule for f in findings}
    assert set(expected["rules"]) <= rules, findings
    errors = {f.rule for f in findings if f.severity.rank == 2}
    assert errors <= set(expected["rules"]), findings
    assert [r.passed for r in report.runs] == expected["runs"], findings
    if "says" in expected:
        assert any(expected["says"] in f.message for f in findings), findings
    assert not list(ENVIRONMENT_CASES.glob(f"{name}/.venv")), "the build wrote into the plugin"


WRITES_ENVIRONMENT = REPO / "tests" / "cases" / "run" / "writes_environment"
SEES_EARLIER = """        import dify_plugin
        from pathlib import Path

        written = Path(dify_plugin.__file__).parent / "written-by-a-run.txt"
        seen = written.exists()
        written.write_text("written")
        yield self.create_text_message("seen" if seen else "fresh")"""


@needs_isolation
def test_runs_write_into_a_view_of_the_environment(tmp_path: Path) -> None:
    """A tool writes into its environment (as Dify lets it): every example gets a writable view that
    starts from the built environment, and the cached environment itself is never changed."""
    root = tmp_path / "plugin"
    shutil.copytree(WRITES_ENVIRONMENT, root)
    (root / "tools" / "case.py").write_text(TOOL.format(body=SEES_EARLIER))
    (root / "tools" / "case.examples.yaml").write_text(
        "examples:\n- name: first\n  inputs: {}\n- name: second\n  inputs: {}\n- name: third\n  inputs: {}\n"
    )
    report, findings = run(root, tmp_path / "cache")
    assert [r.outputs.get("text") for r in report.runs] == ["fresh"] * 3, findings
    assert not list((tmp_path / "cache" / "envs").glob("*/lib/python3*/site-packages/*/written-by-a-run.txt"))
    assert not list((tmp_path / "cache" / "envs").glob("*/lib/python3*/site-packages/unpacked-data.txt"))


# A tool that tries to change the SDK's source and bytecode (shared files) in place, then shows the
# traceback of an exception raised inside PyYAML (a module loaded from a shared .pyc).
CHANGES_SHARED = """        import traceback
        from pathlib import Path

        import dify_plugin
        import yaml

        said = []
        package = Path(dify_plugin.__file__).parent
        for target in (package / "__init__.py", *package.glob("__pycache__/__init__.*.pyc")):
            try:
                with target.open("r+b") as handle:
                    handle.write(b"changed by a run")
                said.append("written")
            except OSError as problem:
                said.append(type(problem).__name__)
        try:
            yaml.safe_load("a: [")
        except yaml.YAMLError:
            said.append(traceback.format_exc())
        yield self.create_text_message(chr(10).join(said))"""
YAML_FRAME = re.compile(r'File "<environment>/lib/python3\.\d+/site-packages/yaml/\w+\.py", line \d+')


SITE = "lib/python3*/site-packages"
SDK_BYTECODE = "__pycache__/__init__.*.pyc"


LOCKED = ENVIRONMENT_CASES / "runner_311_lock_312"


def locked_plugin(folder: Path, tag: str, body: str = "") -> Path:
    """A plugin installed from its uv.lock (the SDK and its dependencies), its own environment
    told apart by a comment (`tag`) in pyproject.toml; `body` replaces its tool's."""
    shutil.copytree(LOCKED, folder)
    with (folder / "pyproject.toml").open("a", encoding="utf-8") as project:
        project.write(f"# {tag}\n")
    if body:
        (folder / "tools" / "case.py").write_text(TOOL.format(body=body))
    return folder


def _shared_files(environment: Path, pattern: str) -> list[os.stat_result]:
    return [path.stat() for path in sorted(environment.glob(f"{SITE}/{pattern}"))]


@needs_isolation
def test_environments_share_their_wheels_files(tmp_path: Path) -> None:
    """Two environments installing the same SDK hold its files and their bytecode once (one inode,
    in the cache's root-only store), read-only to everyone else; what a wheel did not install stays
    private. A run that writes to a shared file changes only its own view of it, and a traceback
    through shared bytecode names the files of the run's own environment."""
    cache = tmp_path / "cache"
    report, findings = run(locked_plugin(tmp_path / "first", "first"), cache)
    assert [r.passed for r in report.runs] == [True], findings
    [built] = [p for p in (cache / "envs").iterdir() if p.is_dir()]
    sdk_source, sdk_bytecode = (
        next(built.glob(f"{SITE}/dify_plugin/{name}")) for name in ("__init__.py", SDK_BYTECODE)
    )
    before = sdk_bytecode.read_bytes()
    report, findings = run(locked_plugin(tmp_path / "second", "second", CHANGES_SHARED), cache)
    assert [r.passed for r in report.runs] == [True], findings
    environments = sorted(p for p in (cache / "envs").iterdir() if p.is_dir())
    assert len(environments) == 2
    for pattern in ("dify_plugin/__init__.py", f"dify_plugin/{SDK_BYTECODE}", "yaml/__pycache__/*.pyc"):
        first_files, second_files = (_shared_files(e, pattern) for e in environments)
        assert first_files, pattern
        assert [f.st_ino for f in first_files] == [f.st_ino for f in second_files], pattern
        assert {f.st_nlink for f in first_files} == {3}, pattern  # the two environments and the store
        assert {f.st_uid for f in first_files} == {0}, pattern
        assert not any(f.st_mode & (stat.S_IWGRP | stat.S_IWOTH) for f in first_files), pattern
    assert stat.S_IMODE((cache / STORE).stat().st_mode) == 0o700
    configs = [(e / "pyvenv.cfg").stat() for e in environments]
    assert configs[0].st_ino != configs[1].st_ino
    assert configs[0].st_nlink == 1
    # the run's writes went to its own view (or were refused); the shared files are as they were
    written, bytecode_written, shown = report.runs[0].outputs["text"].split("\n", 2)
    assert {written, bytecode_written} <= {"written", "PermissionError", "OSError"}, written
    assert sdk_bytecode.read_bytes() == before
    assert b"changed by a run" not in sdk_source.read_bytes()
    # the traceback names the environment's own files and shows their lines
    assert YAML_FRAME.search(shown), shown
    assert "yaml.parser.ParserError" in shown or "yaml.scanner.ScannerError" in shown, shown
    assert str(cache) not in shown


@needs_isolation
def test_an_environment_built_from_a_source_distribution_adds_nothing_to_the_store(tmp_path: Path) -> None:
    """What a stranger's build script may have touched stays the environment's own: the package it
    built is not shared and nothing of the environment enters the store; only files whose bytes a
    wheel-only environment stored already (the SDK's) become those inodes."""
    cache = tmp_path / "cache"
    report, findings = run(locked_plugin(tmp_path / "wheels", "wheels"), cache)
    assert [r.passed for r in report.runs] == [True], findings
    stored = sorted((cache / STORE).iterdir())
    root = plugin(
        tmp_path / "plugin",
        "dify_plugin==0.10.2\n./vendor/dify_registry_case_sdist-1.0.tar.gz\n",
        yields("dify_registry_case_sdist", "VALUE"),
    )
    sdist(root / "vendor", "dify_registry_case_sdist", 'VALUE = "built from source"\n')
    report, findings = run(root, cache)
    assert [r.outputs.get("text") for r in report.runs] == ["built from source"], findings
    assert sorted((cache / STORE).iterdir()) == stored
    environments = [p for p in (cache / "envs").iterdir() if p.is_dir()]
    [from_source] = [e for e in environments if _shared_files(e, "dify_registry_case_sdist/*.py")]
    [from_wheels] = [e for e in environments if e != from_source]
    sdk = [_shared_files(e, "dify_plugin/__init__.py")[0] for e in (from_wheels, from_source)]
    assert sdk[0].st_ino == sdk[1].st_ino
    for made in ("dify_registry_case_sdist/*.py", "dify_registry_case_sdist/__pycache__/*.pyc"):
        assert {f.st_nlink for f in _shared_files(from_source, made)} == {1}, made


def _broken_registry(tmp_path: Path) -> Path:
    """A copy of the registry's package whose module the build helper imports has a syntax error."""
    copy = tmp_path / "registry" / "generator"
    shutil.copytree(own_failure.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    wire_module = copy / "run" / "wire" / "__init__.py"
    wire_module.write_text(wire_module.read_text() + "\ndef broken(:\n")
    return copy


def test_a_broken_build_helper_is_the_registrys_failure_not_the_plugins(tmp_path: Path) -> None:
    """The build helper started as the build starts it, from a copy of the registry with a syntax
    error: its traceback, as the build reports it, is the registry's failure (exit 3), not R009."""
    package = _broken_registry(tmp_path)
    start = (
        f"import sys; sys.path.insert(0, {str(package.parent)!r}); import runpy; "
        "runpy.run_module('generator.run.builder', run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-B", "-c", start, "{}"], capture_output=True, text=True, check=False
    )
    problem = envbuild.readable(done.stderr, tmp_path / "plugin")  # as the build reports it
    assert "SyntaxError" in problem
    assert own_failure.registry_frames(problem, package)
    with pytest.raises(BrokenRegistry, match=r"build helper .* does not import: .*SyntaxError"):
        own_failure.raise_if_own(problem, package)


def test_a_forged_registry_traceback_does_not_stop_the_run() -> None:
    """A build script can print anything: frames naming the registry's files while its build helper
    imports fine stay the plugin's failure (R009), so a stranger cannot stop the registry's run."""
    forged = (
        f'Traceback (most recent call last): File "{own_failure.PACKAGE}/run/builder.py", line 3, in '
        "<module> SyntaxError: invalid syntax"
    )
    assert own_failure.registry_frames(forged)
    own_failure.raise_if_own(forged)  # nothing raised
    uv_said = "× No solution found when resolving dependencies: ╰─▶ Because dify-registry-no-such-package"
    assert own_failure.registry_frames(uv_said) == []
