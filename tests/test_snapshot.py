"""A plugin is read once: every stage asks its `PluginReader`, which keeps what it read and what
was parsed from it, so `validate --submission` (every check) and the run planner's questions
read each file once and walk the tree once."""

from __future__ import annotations

import ast
import os
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.catalog import SiteData
from generator.check import CheckContext, all_checks
from generator.check.all_checks import check_plugin
from generator.findings import Finding
from generator.load import examples as examples_module
from generator.load import reader as reader_module
from generator.load.crawl import LoadedPlugin, load_plugin
from generator.load.examples import load_examples
from generator.pipeline import Pipeline, forget_after_checks, resolve_schemas
from tests.conftest import REPO

CASES = REPO / "tests" / "cases" / "validate"


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> Counter[str]:
    calls: Counter[str] = Counter()
    original: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[str(args[0])] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], Counter[str]]:
    """(opened files, walked folders) while the test runs."""
    opened = _counting(monkeypatch, reader_module, "_head")
    walked = _counting(monkeypatch, os, "walk")
    return opened, walked


@pytest.mark.parametrize("case", ["good/submission-ready", "bad/examples", "bad/message-not-yielded"])
def test_every_check_reads_each_file_once(
    case: str, tmp_path: Path, reads: tuple[Counter[str], Counter[str]]
) -> None:
    """README, PRIVACY.md, requirements, sources and examples: opened once, the tree walked once."""
    root = tmp_path / "plugin"
    shutil.copytree(CASES / case, root, symlinks=True)
    pipeline = Pipeline((root,), resolve_schemas((root,)), submission=True)
    with pipeline.load() as inputs:
        (loaded,) = inputs.plugins
        pipeline.check(loaded)
        assert loaded.plugin is not None
        for tool in loaded.plugin.tools:  # the run planner asks again
            load_examples(loaded, tool)
    opened, walked = reads
    plugin_reads = {path: n for path, n in opened.items() if Path(path).is_relative_to(root)}
    assert plugin_reads, "the check read nothing through the reader"
    assert {path: n for path, n in plugin_reads.items() if n > 1} == {}
    assert walked[str(root)] == 1


def test_examples_are_parsed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check and the planner get the same examples without a second parse."""
    root = tmp_path / "plugin"
    shutil.copytree(CASES / "bad" / "examples", root)
    parsed = _counting(monkeypatch, examples_module, "read_yaml")
    loaded = load_plugin(root, "p")
    assert loaded.plugin is not None
    tool = loaded.plugin.tools[0]
    first = load_examples(loaded, tool)
    second = load_examples(loaded, tool)
    assert first == second
    assert first[0] or first[1]
    assert sum(parsed.values()) == 1


def test_a_file_changed_after_loading_is_not_seen(tmp_path: Path) -> None:
    """One snapshot: a check asking after the file changed gets what the first read saw."""
    root = tmp_path / "plugin"
    shutil.copytree(CASES / "good" / "minimal", root)
    loaded = load_plugin(root, "p")
    before = loaded.reader.text("README.md", 1000)
    (root / "README.md").write_text("changed")
    assert loaded.reader.text("README.md", 1000) == before != "changed"


def test_syntax_trees_are_dropped_after_the_checks(tmp_path: Path) -> None:
    """The checks parse each module once; the trees are not kept for the rest of the pipeline (at
    10,000 tools they cost a third more time and memory), while the bytes and what was derived from
    the trees stay: a tree asked for again is parsed from the same snapshot."""
    root = tmp_path / "plugin"
    shutil.copytree(CASES / "bad" / "message-not-yielded", root)
    pipeline = Pipeline((root,), resolve_schemas((root,)), submission=True, site=True)
    with pipeline.load() as inputs:
        (loaded,) = inputs.plugins
        # the catalog's steps for one plugin, in its order, up to the runs
        found = pipeline.check(loaded)
        SiteData().take(loaded)
        forget_after_checks(loaded, runs_follow=True)
        reader = loaded.reader
        kinds = {kind for kind, _ in reader._derived}
        assert reader_module.SYNTAX_TREES not in kinds
        assert "access-domains" in kinds  # the site's scan was made while the trees existed
        assert any(f.rule == "R020" for f in found)  # found on a tree, now gone
        python = [f for f in reader.tree.files if f.relative.endswith(".py")]
        assert python
        before = {f.relative: reader.packaged_text(f) for f in python}
        for file in python:
            (root / file.relative).write_text("changed = True\n")
        again = reader.python_tree(python[0])
        assert again is not None
        assert all(reader.packaged_text(f) == text for f, text in zip(python, before.values(), strict=True))
        assert "changed" not in {getattr(node, "id", None) for node in ast.walk(again)}


def test_the_catalog_ends_the_snapshot(tmp_path: Path) -> None:
    """Once the catalog is frozen nothing reads the plugin: the reader lets go of what it kept, while
    the catalog still holds what the site shows (the README, the access-domain scan)."""
    root = tmp_path / "plugin"
    shutil.copytree(CASES / "good" / "submission-ready", root)
    catalog = Pipeline((root,), resolve_schemas((root,)), submission=True, site=True).catalog()
    (loaded,) = catalog.plugins
    assert loaded.reader._heads == {}
    assert loaded.reader._derived == {}
    assert loaded.plugin is not None
    assert loaded.plugin.readme
    assert catalog.domains


def test_without_runs_each_plugin_is_let_go_after_its_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No run stage reads the plugins later, so each reader lets go as soon as its plugin's checks
    (and what the site takes of its files) are done, before the next plugin is checked; with a run
    stage the reads are kept for it."""
    roots = []
    for name in ("first", "second"):
        roots.append(tmp_path / name)
        shutil.copytree(CASES / "good" / "submission-ready", roots[-1])
    kept_by_first: list[int] = []
    original = check_plugin

    def check(loaded: LoadedPlugin, context: CheckContext) -> list[Finding]:
        kept_by_first.append(len(first.reader._heads))
        return original(loaded, context)

    monkeypatch.setattr(all_checks, "check_plugin", check)
    pipeline = Pipeline(tuple(roots), resolve_schemas(tuple(roots)), site=True)
    with pipeline.load() as inputs:
        first, second = inputs.plugins
        catalog = pipeline.catalog_of(inputs)
    assert kept_by_first[0] > 0  # loading read the first plugin's files
    assert kept_by_first[1] == 0  # and they were let go before the second was checked
    assert first.reader._heads == {}
    assert second.reader._heads == {}
    assert set(catalog.domains) == {first.display, second.display}
    assert catalog.icons
    with pipeline.load() as inputs:
        for loaded in inputs.plugins:
            forget_after_checks(loaded, runs_follow=True)
        assert all(loaded.reader._heads for loaded in inputs.plugins)
