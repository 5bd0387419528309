"""The other languages build in forked processes beside the default one: the same site as one
process builds, and a failed language fails the build."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO
from tests.sitebuild import CASES, write_config

PLUGINS = [CASES / "registry" / "plugins" / "weather_demo"]


def configure(folder: Path, jobs: int) -> Path:
    """An mkdocs.yml over the test plugin, building `jobs` languages at a time."""
    config_file = write_config(folder, PLUGINS) / "mkdocs.yml"
    config = json.loads(config_file.read_text(encoding="utf-8"))
    config["plugins"][0]["dify-registry"]["jobs"] = jobs
    config_file.write_text(json.dumps(config), encoding="utf-8")
    return config_file.parent


def build(tmp_path: Path, name: str, jobs: int) -> tuple[Path, str]:
    """`mkdocs build` in a fresh single-threaded process; the site folder and what it logged."""
    folder = configure(tmp_path / name, jobs)
    site = tmp_path / name / "site"
    command = [sys.executable, "-m", "mkdocs", "build", "-f", str(folder / "mkdocs.yml"), "-d", str(site)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return site, done.stderr


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_forked_language_builds_write_the_same_site(tmp_path: Path) -> None:
    forked, log = build(tmp_path, "forked", jobs=2)
    single, single_log = build(tmp_path, "single", jobs=1)
    assert "in process" in log  # the other languages really were built elsewhere
    assert "in process" not in single_log
    files = tree(forked)
    assert all(any(name.startswith(f"{prefix}/") for name in files) for prefix in ("zh", "ja", "pt"))
    other = tree(single)
    # Pagefind indexes the finished pages after every build in both cases; its bundle's file names
    # and hashes differ from one indexing to the next, so it is compared by what it indexed.
    assert _indexed(files) == _indexed(other)
    assert _pages(files) == _pages(other)


def _pages(files: dict[str, bytes]) -> dict[str, bytes]:
    return {name: data for name, data in files.items() if not name.startswith("pagefind/")}


def _indexed(files: dict[str, bytes]) -> dict[str, int]:
    """Each language of the search index, with its count of pages."""
    entry = json.loads(files["pagefind/pagefind-entry.json"])
    return {language: about["page_count"] for language, about in entry["languages"].items()}


FAILING = """
import sys
from generator.site import multilang
from mkdocs.commands.build import build
from mkdocs.config import load_config

real = multilang.build_language

def build_language(config, language, shared, rebuild):
    if language.code == "pt_BR":
        raise RuntimeError("the Portuguese build broke")
    real(config, language, shared, rebuild)

multilang.build_language = build_language
try:
    build(load_config(sys.argv[1], site_dir=sys.argv[2]))
except Exception as error:
    print("FAILED:", error)
    sys.exit(1)
"""


def test_a_failed_language_fails_the_build(tmp_path: Path) -> None:
    # Two jobs: this process builds en_US and ja_JP, a forked child zh_Hans and then pt_BR.
    folder = configure(tmp_path / "failing", jobs=2)
    site = tmp_path / "failing" / "site"
    command = [sys.executable, "-c", FAILING, str(folder / "mkdocs.yml"), str(site)]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr[-3000:]
    assert "FAILED: Aborted" in done.stdout
    assert "the pt_BR build failed: the Portuguese build broke" in done.stderr
    assert "the process building zh_Hans, pt_BR failed" in done.stderr
    # The other languages were still built: the child's before it failed, and this process's own.
    assert (site / "zh" / "index.html").is_file()
    assert (site / "ja" / "index.html").is_file()
    assert not (site / "pt" / "index.html").exists()
