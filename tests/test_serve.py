"""Live preview: `mkdocs serve` and `dify-registry serve` rebuild a tool page after its YAML changes.

Each test starts the real server as a child process on a free localhost port over a temporary copy
of a small plugin, fetches a tool page, changes the tool's English label, and polls until the served
page shows the new label (bounded wait); the child's process group is killed at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import pytest
from mkdocs.config import load_config

from tests.conftest import REPO
from tests.sitebuild import write_config

PLUGIN = REPO / "tests" / "cases" / "site" / "registry" / "plugins" / "weather_demo"
TOOL_FILE = "tools/forecast.yaml"
OLD_LABEL = "en_US: Forecast\n"
# A first build of four languages takes seconds; a loaded two-core machine needs more.
WITHIN = 240.0
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.xdist_group("serve")


def free_port() -> int:
    """A localhost port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def fetch(url: str) -> str | None:
    """The body at `url`, or None while the server is not (yet) answering with it."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            body: bytes = response.read()
            return body.decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


@dataclass(frozen=True)
class Server:
    """A running preview server and the URL of its site root."""

    process: subprocess.Popen[bytes]
    base: str
    log: Path

    def wait_for(self, url: str, text: str) -> str:
        """Poll `url` until its body contains `text`; fail with the server's output otherwise."""
        deadline = time.monotonic() + WITHIN
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server exited with {self.process.returncode}:\n{self.output()}")
            body = fetch(url)
            if body is not None and text in body:
                return body
            time.sleep(0.5)
        pytest.fail(f"{url} did not show {text!r} within {WITHIN:.0f} s:\n{self.output()}")

    def output(self) -> str:
        """The end of what the server printed."""
        return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]

    def tool_page(self, tool: str) -> str:
        """The served URL of a tool's English page, as the served index.json names it."""
        index = json.loads(self.wait_for(self.base + "index.json", '"plugins"'))
        for plugin in index["plugins"]:
            for entry in plugin["tools"]:
                if entry["name"] == tool:
                    return self.base + urlparse(str(entry["pages"]["en_US"])).path.lstrip("/")
        pytest.fail(f"index.json lists no tool {tool}")


@contextlib.contextmanager
def serving(command: list[str], port: int, work: Path) -> Iterator[Server]:
    """Run a server in its own process group; kill the whole group afterwards."""
    log = work / "server.log"
    env = {**os.environ, "HOME": str(work)}
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, cwd=work, stdout=output, stderr=subprocess.STDOUT, start_new_session=True, env=env
        )
        try:
            yield Server(process, f"http://127.0.0.1:{port}/", log)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


@contextlib.contextmanager
def forecast_served(program: str, args: list[str], work: Path) -> Iterator[tuple[Server, str]]:
    """`program ARGS` serving on a free port, once the forecast tool's page shows its first label."""
    port = free_port()
    command = [str(BIN / program), *args, "--dev-addr", f"127.0.0.1:{port}"]
    with serving(command, port, work) as server:
        page = server.tool_page("forecast")
        server.wait_for(page, "Forecast")
        yield server, page


def relabel(tool_yaml: Path, label: str) -> None:
    """Change the tool's English label in its YAML."""
    text = tool_yaml.read_text(encoding="utf-8")
    assert OLD_LABEL in text
    tool_yaml.write_text(text.replace(OLD_LABEL, f"en_US: {label}\n", 1), encoding="utf-8")


def pack(folder: Path, package: Path) -> None:
    """Zip a plugin folder into a .difypkg (written whole, then moved into place)."""
    partial = package.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    partial.replace(package)


def test_mkdocs_serve_rebuilds_when_a_tool_yaml_manifest_or_schema_changes(tmp_path: Path) -> None:
    """`mkdocs serve` over a registry shows a changed tool label, plugin label and schema without a
    restart, and serves the changed schema file's new bytes."""
    plugin = tmp_path / "registry" / "plugins" / "weather_demo"
    shutil.copytree(PLUGIN, plugin)
    schemas = tmp_path / "schemas"
    shutil.copytree(REPO / "schemas", schemas)
    config = write_config(tmp_path / "config", [tmp_path / "registry"], schemas) / "mkdocs.yml"
    with forecast_served("mkdocs", ["serve", "-f", str(config)], tmp_path) as (server, page):
        relabel(plugin / TOOL_FILE, "Forecast by the hour")
        server.wait_for(page, "Forecast by the hour")
        manifest = plugin / "manifest.yaml"
        text = manifest.read_text(encoding="utf-8")
        assert "en_US: Weather Demo\n" in text
        manifest.write_text(text.replace("en_US: Weather Demo\n", "en_US: Weather Demo, renamed\n", 1))
        server.wait_for(server.base + "plugins/weather_demo/", "Weather Demo, renamed")
        schema = schemas / "v1" / "general_structure.json"
        document = json.loads(schema.read_bytes())
        document["description"] = "General structure, described again"
        schema.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        server.wait_for(server.base + "schemas/v1/general_structure/", "General structure, described again")
        served = fetch(server.base + "schemas/v1/general_structure.json")
        assert served is not None
        assert served.encode("utf-8") == schema.read_bytes()


def test_dify_registry_serve_previews_a_plugin_folder(tmp_path: Path) -> None:
    """`dify-registry serve PATH` previews one plugin outside a registry and follows its edits."""
    plugin = tmp_path / "weather_demo"
    shutil.copytree(PLUGIN, plugin)
    with forecast_served("dify-registry", ["serve", str(plugin)], tmp_path) as (server, page):
        relabel(plugin / TOOL_FILE, "Forecast, previewed")
        server.wait_for(page, "Forecast, previewed")


def test_dify_registry_serve_previews_a_package(tmp_path: Path) -> None:
    """`dify-registry serve x.difypkg` previews a package and rebuilds when the package is replaced."""
    source = tmp_path / "source"
    shutil.copytree(PLUGIN, source)
    package = tmp_path / "weather_demo.difypkg"
    pack(source, package)
    with forecast_served("dify-registry", ["serve", str(package)], tmp_path) as (server, page):
        relabel(source / TOOL_FILE, "Forecast, repackaged")
        pack(source, package)
        server.wait_for(page, "Forecast, repackaged")


def test_preview_caches_tool_runs_outside_the_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve --run` watches the plugin folder: its run cache must live elsewhere, or every write to
    the cache would start another rebuild."""
    from generator.commands.serve import preview_config
    from generator.site.multilang import registry_plugin

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    work = tmp_path / "work"
    work.mkdir()
    config = load_config(str(preview_config(PLUGIN, work, "127.0.0.1:8000", run_examples=True)))
    plugin = registry_plugin(config)
    options = plugin._run_options(config)
    assert options is not None
    assert options.cache_dir == tmp_path / "xdg" / "dify-registry" / "serve"
    assert not options.cache_dir.is_relative_to(PLUGIN)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "again").mkdir()
    again = load_config(str(preview_config(PLUGIN, tmp_path / "again", "127.0.0.1:8000", run_examples=True)))
    options = registry_plugin(again)._run_options(again)
    assert options is not None
    assert options.cache_dir == tmp_path / "home" / ".cache" / "dify-registry" / "serve"
