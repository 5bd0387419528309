"""Runs spread over machines: three shards run at once in separate processes with separate caches,
their caches merged, and the site built from the merged cache without running anything, for
another site URL than the runs were made with, is the site of one unsharded build (build times,
dates and run durations aside)."""

from __future__ import annotations

import difflib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.load.crawl import load_plugin
from generator.run import RunOptions, run_plugins
from generator.run.shard import Shard, parse_shard, split
from tests.conftest import REPO
from tests.publishing import SCRIPTS, command, registry_copy

CASES = REPO / "tests" / "cases" / "cache"

# What differs between two builds of the same registry: when they were built, how long the runs
# took (measured, not derived), and the random ids the SDK gives uploaded files (`related_id`).
VARYING = re.compile(
    r'"(?:built|generated|date|duration)[a-z_]*": *[^,}\n]+'
    r"|\b[0-9a-f]{32}\b"
    r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?"
    r"|\b\d+(?:\.\d+)? ?(?:ms|s)\b"
)


def _steady(text: str) -> str:
    return VARYING.sub("~", text)


def _tool_pages(site: Path) -> dict[str, str]:
    """Every tool page of every language, by its path in the site."""
    pages = {}
    for page in sorted(site.rglob("plugins/*/*/*/index.html")):
        pages[page.relative_to(site).as_posix()] = _steady(page.read_text(encoding="utf-8"))
    return pages


def _index(site: Path) -> str:
    data = json.loads((site / "index.json").read_text(encoding="utf-8"))
    return _steady(json.dumps(data, indent=1, sort_keys=True))


def test_the_split_is_deterministic_balanced_and_complete() -> None:
    costs = [("a", 900), ("b", 500), ("c", 400), ("d", 300), ("e", 300), ("f", 100)]
    shards = split(costs, 3)
    assert shards == split(list(costs), 3)
    assert sorted(set(shards)) == [1, 2, 3]
    loads = [sum(cost for (_, cost), s in zip(costs, shards, strict=True) if s == i) for i in (1, 2, 3)]
    assert max(loads) - min(loads) <= 300  # longest first onto the least loaded shard
    assert split(costs, 1) == [1] * len(costs)
    assert parse_shard("2/3") == Shard(2, 3)
    for wrong in ("0/3", "4/3", "1", "a/b", "1/0"):
        with pytest.raises(ValueError, match=re.escape(repr(wrong))):
            parse_shard(wrong)


@pytest.mark.parametrize("line", [["run", "."], ["validate", ".", "--run"], ["build", "."]])
def test_run_validate_and_build_take_a_shard(line: list[str]) -> None:
    from generator.cli import build_parser
    from generator.commands.options import run_options

    args = build_parser().parse_args([*line, "--shard", "2/3"])
    assert run_options(args).shard == Shard(2, 3)


def test_a_bad_shard_is_a_usage_error(tmp_path: Path) -> None:
    done = command("run", ".", "--shard", "3/2", cwd=tmp_path)
    assert done.returncode == 2
    assert "I must be between 1 and N" in done.stderr


def test_three_shards_merged_build_the_site_of_one_build(tmp_path: Path) -> None:
    registry = registry_copy(tmp_path / "registry")
    caches = [tmp_path / f"cache-{i}" for i in (1, 2, 3)]
    more = ["--jobs", "1", "--format", "json", "--cache-dir"]
    shards = [
        subprocess.Popen(
            [str(SCRIPTS / "dify-registry"), "run", ".", "--shard", f"{i}/3", *more, str(cache)],
            cwd=registry,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i, cache in enumerate(caches, 1)
    ]
    reports = []
    for shard in shards:
        out, err = shard.communicate(timeout=900)
        assert shard.returncode in (0, 1), err
        reports.append(json.loads(out))
    ran = [{r["tool"].split("/")[0] for r in report["runs"]} for report in reports]
    assert all(ran), "every shard runs some plugin"
    assert sum(map(len, ran)) == len(set().union(*ran)), "no plugin runs in two shards"
    assert set().union(*ran) == {p.name for p in (registry / "plugins").iterdir()}

    merged = tmp_path / "merged"
    done = command("cache", "merge", *map(str, caches), "--into", str(merged), cwd=registry)
    assert done.returncode == 0, done.stderr
    runs_before = sorted(p.name for p in (merged / "runs").iterdir())
    assert len(runs_before) == sum(len(list((c / "runs").iterdir())) for c in caches)

    # The shards ran without a site URL of their own; the site goes elsewhere than mkdocs.yml says.
    elsewhere = ["--site-url", "https://example.github.io/registry/"]
    from_shards = tmp_path / "site-shards"
    done = command(
        "build", ".", "--site-dir", str(from_shards), "--cache-dir", str(merged), *elsewhere, cwd=registry
    )
    assert done.returncode == 0, done.stderr
    # Nothing ran: no environment was built, no run was added to the cache.
    assert not (merged / "envs").exists()
    assert sorted(p.name for p in (merged / "runs").iterdir()) == runs_before

    one = tmp_path / "site-one"
    done = command(
        "build", ".", "--site-dir", str(one), "--cache-dir", str(tmp_path / "one"), *elsewhere, cwd=registry
    )
    assert done.returncode == 0, done.stderr
    assert _index(from_shards) == _index(one)
    pages = _tool_pages(one)
    assert len(pages) >= 4 * 6
    sharded = _tool_pages(from_shards)
    assert sorted(sharded) == sorted(pages)
    for name, page in pages.items():
        lines = difflib.unified_diff(page.splitlines(), sharded[name].splitlines(), lineterm="")
        difference = "\n".join(lines)
        assert not difference, f"{name}:\n{difference[:3000]}"


def test_a_cached_run_names_no_folder_of_the_machine(tmp_path: Path) -> None:
    """The tool's text and standard error name its file, its environment's interpreter and the
    standard library: the run (returned and cached) names the plugin by its display path and the
    rest by labels, so the cache moves between machines."""
    root = tmp_path / "plugin"
    shutil.copytree(CASES / "names_machine_paths", root)
    cache = tmp_path / "cache"
    report = run_plugins([load_plugin(root, "shown")], RunOptions(cache_dir=cache, jobs=1))
    (run,) = report.runs
    assert run.passed, run.findings
    text = str(run.outputs["text"])
    assert text.startswith("shown/tools/case.py <environment>/bin/python <python>/lib/python3."), text
    assert 'File "shown/tools/case.py", line' in run.stderr
    saved = next((cache / "runs").glob("*/run.json")).read_text(encoding="utf-8")
    for place in (str(root.resolve()), str(cache.resolve()), str(Path.home()) + "/", str(tmp_path)):
        assert place not in saved
        assert place not in text + run.stderr


def test_a_run_is_cached_for_every_site_url(tmp_path: Path) -> None:
    """Where the site is published changes no run: the runs made for one site URL are read from
    the cache for another (no environment built, nothing run again), and show their files at the
    second site's address, never at the first's."""
    root = tmp_path / "badge_maker"
    shutil.copytree(REPO / "plugins" / "badge_maker", root)
    cache = tmp_path / "cache"
    first, second = "https://one.example/", "https://example.github.io/registry/"
    ran = run_plugins([load_plugin(root)], RunOptions(cache_dir=cache, jobs=1, site_url=first))
    assert ran.runs
    assert not any(run.cached for run in ran.runs)
    stored = sorted(p.name for p in (cache / "runs").iterdir())
    shutil.rmtree(cache / "envs")  # a run that is not cached would need its environment again
    again = run_plugins([load_plugin(root)], RunOptions(cache_dir=cache, jobs=1, site_url=second))
    assert all(run.cached for run in again.runs)
    assert sorted(p.name for p in (cache / "runs").iterdir()) == stored
    assert not (cache / "envs").exists()
    shared = next(run for run in again.runs if run.tool.tool == "share_badge")
    (badge,) = shared.outputs["files"]
    assert badge["url"].startswith(second + "files/badge_maker/"), badge
    assert shared.outputs["badge"]["url"] == badge["url"]
    assert first not in json.dumps([dict(run.outputs) for run in again.runs])
