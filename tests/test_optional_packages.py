"""R147 after a run: the environment the run built settles what the registry's index could only
say. The environment here is a real folder of `.dist-info` records, read as a built one is."""

from __future__ import annotations

from pathlib import Path

from generator.check.import_index import closure, import_names, merged
from generator.check.optional_packages import FEATURE_NEEDS_PACKAGE, features_without_package, rechecked
from generator.load.crawl import load_plugin
from tests.conftest import REPO

CASE = REPO / "tests" / "cases" / "validate" / "bad" / "library-feature-needs-package"


def _environment(root: Path, *distributions: tuple[str, str]) -> Path:
    """A built environment's interpreter path, whose site-packages holds `distributions` (name,
    top-level module)."""
    site = root / "lib" / "python3.12" / "site-packages"
    for name, module in distributions:
        info = site / f"{name}-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Name: {name}\n", encoding="utf-8")
        (info / "top_level.txt").write_text(f"{module}\n", encoding="utf-8")
    (root / "bin").mkdir()
    return root / "bin" / "python"


def test_a_built_environment_that_holds_the_package_drops_the_finding(tmp_path: Path) -> None:
    loaded = load_plugin(CASE)
    static = list(features_without_package(loaded))
    assert [finding.message.split(" needs")[0] for finding in static] == [
        "httpx.Client(http2=True)",
        "read_excel(...)",
        'BeautifulSoup(..., "lxml")',
        "to_markdown(...)",
    ]
    python = _environment(tmp_path, ("tabulate", "tabulate"), ("lxml", "lxml"), ("httpx", "httpx"))
    again = rechecked(loaded, static, python)
    assert sorted(f.message.split(" needs")[0] for f in again if f.rule == FEATURE_NEEDS_PACKAGE.code) == [
        "httpx.Client(http2=True)",
        "read_excel(...)",
    ]


def test_an_empty_environment_keeps_what_the_index_said(tmp_path: Path) -> None:
    loaded = load_plugin(CASE)
    static = list(features_without_package(loaded))
    (tmp_path / "bin").mkdir()
    assert rechecked(loaded, static, tmp_path / "bin" / "python") == static


def test_pandas_brings_none_of_its_optional_packages() -> None:
    installed, known = closure(["pandas"])
    assert known
    modules = {module for distribution in installed for module in import_names(distribution)}
    assert {"numpy", "dateutil"} <= modules
    assert not modules & {"tabulate", "openpyxl", "xlrd", "lxml", "jinja2"}


def test_merged_indexes_add_distributions_and_join_versions() -> None:
    old = {"distributions": {"a": {"imports": ["a"], "requires": ["x"]}}}
    new = {
        "distributions": {"a": {"imports": ["a"], "requires": ["y"]}, "b": {"imports": ["b"], "requires": []}}
    }
    assert merged(old, new) == {
        "distributions": {
            "a": {"imports": ["a"], "requires": ["x", "y"]},
            "b": {"imports": ["b"], "requires": []},
        }
    }
