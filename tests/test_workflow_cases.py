"""Data-driven tests of `dify-registry workflow`: each DSL file under tests/cases/workflow/ is checked
against the registry's own plugins and the case plugins (two versions of `case_author/forecast`),
and finds exactly what `expect.yaml` lists. Adding a case is adding a file and its entry."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from generator.cli import main
from generator.findings import Finding
from generator.ruleset import all_rules
from generator.schemas import shipped_schemas
from generator.workflow.catalog import Catalog, Upgrade, load_catalog
from generator.workflow.check import check
from generator.workflow.dsl import read_dsl

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases" / "workflow"
CATALOG = (ROOT / "plugins", CASES / "plugins")
EXPECT: dict[str, list[dict[str, object]]] = yaml.safe_load(
    (CASES / "expect.yaml").read_text(encoding="utf-8")
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(list(CATALOG), shipped_schemas())


def _found(name: str, catalog: Catalog) -> list[Finding]:
    path = CASES / name
    return check(read_dsl(path.read_bytes(), f"tests/cases/workflow/{name}"), catalog)


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_case_finds_exactly_what_is_expected(name: str, catalog: Catalog) -> None:
    """Each case file has exactly the listed findings, at the listed places."""
    found = [(d.rule, d.severity.value, d.line, d.column) for d in _found(name, catalog)]
    expected = [(r["rule"], r["severity"], r["line"], r["column"]) for r in EXPECT[name]]
    assert sorted(found) == sorted(expected)


def test_findings_name_the_fix_and_every_node(catalog: Catalog) -> None:
    """A former built-in name Dify resolves elsewhere names where its tools are now; repeated
    findings of one plugin or tool are one finding naming every node; a file that is no DSL says so."""
    moved = {d.line: d.hint for d in _found("dsl/legacy-moved.yml", catalog)}
    assert moved[31] is not None
    assert "set provider_id to `langgenius/openai_tool/openai`" in moved[31]
    assert moved[43] is not None
    assert "Dify looks for `dalle` in the plugin langgenius/dalle" in moved[43]
    grouped = {d.line: d.message for d in _found("dsl/grouped-findings.yml", catalog)}
    assert grouped[31].startswith("node 2000 (Search 1) and 2 more (2010 (Search 2), 2020 (Search 3)): ")
    assert "plugin langgenius/tavily" in grouped[31]
    assert "2040 (Find 2)" in grouped[67]
    assert "no tool jina_search" in grouped[67]
    (compose,) = _found("dsl/not-a-dsl.yml", catalog)
    assert compose.message.startswith("this YAML is not a Dify app DSL")
    (manifest,) = _found("dsl/not-a-dsl-manifest.yml", catalog)
    assert manifest.hint is not None
    assert "a plugin's manifest" in manifest.hint


def test_a_datasource_under_another_provider_names_what_the_plugin_has(catalog: Catalog) -> None:
    """A plugin the catalog holds, named with a provider it lacks (a renamed provider): the finding
    says which datasources the plugin has, and in which provider."""
    (finding,) = _found("pipeline/datasource-provider-unknown.yml", catalog)
    assert finding.message.endswith(
        "plugin case_author/pages has no datasource page in provider page_source "
        "(it has page in provider pages)"
    )


def test_every_case_file_is_listed() -> None:
    """A case file without an entry would test nothing."""
    files = {str(p.relative_to(CASES)) for p in CASES.glob("*/*.yml")}
    assert files == set(EXPECT)


def test_every_workflow_rule_is_exercised() -> None:
    """Each `W` rule is produced by some case."""
    produced = {row["rule"] for rows in EXPECT.values() for row in rows}
    assert {code for code in all_rules() if code.startswith("W")} <= produced


def test_every_workflow_rule_is_documented() -> None:
    """Each `W` rule has its row in registry/docs/workflow.md."""
    page = (ROOT / "registry" / "docs" / "workflow.md").read_text(encoding="utf-8")
    for code, rule in all_rules().items():
        if code.startswith("W"):
            assert f"| {code} | `{rule.name}` |" in page, code


def test_both_versions_make_one_plugin_with_a_release(catalog: Catalog) -> None:
    """Two versions of one plugin in the collection: the newest is the catalog's, and the release
    between them carries the diff engine's breaking changes and the removed output."""
    spec = catalog.plugins["case_author/forecast"]
    assert spec.version == "2.0.0"
    (release,) = spec.since("1.0.0")
    assert ("forecast", "daily", "summary.wind") in release.removed_outputs
    assert len(release.breaking) == 2
    assert spec.since("2.0.0") == []


def test_a_pinned_version_is_compared_with_the_catalogs_directly(catalog: Catalog) -> None:
    """mailer 1.1.0 broke what 1.2.0 restored: from 1.0.0 nothing breaks, from 1.1.0 the restored
    parameter is now required; without the direct comparison (an older index) the releases in
    between are added up, which is what made the reverted change look breaking."""
    from generator.workflow.catalog import PluginSpec

    spec = catalog.plugins["case_author/mailer"]
    assert spec.version == "1.2.0"
    assert spec.upgrade_from("1.0.0") == Upgrade((), frozenset(), True)
    from_broken = spec.upgrade_from("1.1.0")
    assert from_broken.direct
    assert from_broken.breaking == ("breaking: tool mailer/send gained the required parameter subject",)
    summed = PluginSpec(
        spec.id,
        spec.version,
        spec.tools,
        tuple(dataclasses.replace(r, upgrade=None, upgrade_removed=None) for r in spec.releases),
    ).upgrade_from("1.0.0")
    assert not summed.direct
    assert len(summed.breaking) == 3
    assert ("mailer", "send", "message_id") in summed.removed_outputs


def test_an_index_json_is_a_catalog(tmp_path: Path, catalog: Catalog) -> None:
    """An index.json (format 2) written for this case is a catalog: same findings as the sources."""
    index = json.loads((CASES / "index.json").read_text(encoding="utf-8"))
    schema = json.loads((ROOT / "schemas" / "v2" / "registry_index.json").read_text(encoding="utf-8"))
    jsonschema.validate(index, schema)
    from_index = load_catalog([CASES / "index.json"], shipped_schemas())
    names = ("dsl/output-removed-on-upgrade.yml", "dsl/option-not-offered.yml", "dsl/clean.yml")
    triggers = tuple(f"dsl/{case.name}" for case in sorted((CASES / "dsl").glob("trigger-*.yml")))
    assert len(triggers) >= 5
    for name in (*names, *triggers):
        rules = sorted(d.rule for d in _found(name, from_index))
        assert rules == sorted(str(row["rule"]) for row in EXPECT[name])


def test_command_formats_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    """The command reports in every format of `validate`; exit 1 on an error, 0 on warnings, 2 on a
    missing file."""
    catalog_args = [a for path in CATALOG for a in ("--catalog", str(path))]
    clean, error = str(CASES / "dsl" / "clean.yml"), str(CASES / "dsl" / "required-parameter-unset.yml")
    assert main(["workflow", clean, *catalog_args]) == 0
    assert main(["workflow", error, *catalog_args, "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert document["diagnostics"][0]["rule"] == "W013"
    assert document["summary"]["files"] == 1
    assert main(["workflow", str(CASES / "dsl" / "option-not-offered.yml"), *catalog_args, "--strict"]) == 1
    for fmt in ("sarif", "github"):
        assert main(["workflow", error, *catalog_args, "--format", fmt]) == 1
    assert main(["workflow", str(CASES / "missing.yml"), *catalog_args]) == 2


def test_hostile_files_end_in_findings(
    tmp_path: Path, catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file over the size limit and a huge string end in findings; crafted node ids stay inside
    one annotation line."""
    big = tmp_path / "big.yml"
    big.write_bytes(b"kind: app\nx: '" + b"a" * (9 * 1024 * 1024) + b"'\n")
    assert main(["workflow", str(big), "--catalog", str(CASES / "plugins")]) == 1
    assert "Y005" in capsys.readouterr().out
    clean = (CASES / "dsl" / "clean.yml").read_text(encoding="utf-8")
    long_title = clean.replace("title: Profile", "title: '" + "t" * 3_000_000 + "'")
    assert [d.rule for d in check(read_dsl(long_title.encode(), "long.yml"), catalog)] == []
    main(
        [
            "workflow",
            str(CASES / "hostile" / "injection.yml"),
            "--catalog",
            str(CASES / "plugins"),
            "--format",
            "github",
        ]
    )
    lines = capsys.readouterr().out.splitlines()
    assert all(line.startswith("::") or line.endswith("info") for line in lines)
    assert sum("::error" in line.split("::", 2)[1] for line in lines if line.startswith("::")) == 0


def test_the_legacy_map_is_derived_from_official_plugins(tmp_path: Path) -> None:
    """`python -m generator.workflow.legacy` maps each provider of a `langgenius` plugin to it (a
    plugin of another author is no replacement); the committed map reads as Dify's names."""
    import shutil

    from generator.workflow.legacy import derive, legacy_map

    official = tmp_path / "tools"
    shutil.copytree(CASES / "plugins" / "forecast-2.0.0", official / "weather_tools")
    manifest = official / "weather_tools" / "manifest.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8")
        .replace("author: case_author", "author: langgenius", 1)
        .replace("name: forecast", "name: weather_tools", 1),
        encoding="utf-8",
    )
    shutil.copytree(CASES / "plugins" / "forecast-1.0.0", official / "not_official")
    assert derive(official)["providers"] == {"forecast": "langgenius/weather_tools/forecast"}
    mapped = legacy_map()
    assert mapped["tavily"] == "langgenius/tavily/tavily"
    assert all(value.count("/") == 2 for value in mapped.values())


def test_provider_ids_resolve_as_dify_resolves_them() -> None:
    """`ToolProviderID`: a bare name is `langgenius/P/P`, four `langgenius` providers live in `P_tool`
    (in the bare and the full form), two parts or other characters are invalid."""
    from generator.workflow.uses import provider_parts

    assert provider_parts("jina") == ("langgenius/jina_tool", "jina")
    assert provider_parts("langgenius/jina/jina") == ("langgenius/jina_tool", "jina")
    assert provider_parts("acme/jina/jina") == ("acme/jina", "jina")
    assert provider_parts("openai") == ("langgenius/openai", "openai")
    assert provider_parts("nobody_knows") == ("langgenius/nobody_knows", "nobody_knows")
    for invalid in ("plugin/provider", "../../etc", "Acme/x/y", "a/b/c/d", ""):
        assert provider_parts(invalid) is None


def test_the_legacy_map_agrees_with_dify_or_names_a_move() -> None:
    """Every entry of the map is either where Dify's resolver finds the provider, or a move the
    check names in its hint (`excel365`, `openai`, `dalle`, ...); the move never resolves a node."""
    from generator.workflow.legacy import legacy_map, moved_to
    from generator.workflow.uses import provider_parts

    moves = {name: target for name, target in legacy_map().items() if moved_to(name)}
    for name, target in legacy_map().items():
        resolved = provider_parts(name)
        assert resolved is not None
        assert ("/".join(resolved) == target) != (name in moves), name
    assert moves["dalle"] == moves["openai"] == "langgenius/openai_tool/openai"
    assert moves["excel365"] == "langgenius/microsoft_excel365/excel365"
    assert "tavily" not in moves
    assert "jina" not in moves


@pytest.mark.parametrize("name", ["dsl/clean.yml", "pipeline/clean-multimodal.yml"])
def test_any_value_of_any_shape_anywhere_never_raises(name: str, catalog: Catalog) -> None:
    """Every value of a clean case (an app, a knowledge pipeline) replaced in turn by values of every
    other shape: the check ends in findings (or none), never in an exception."""
    clean = yaml.safe_load((CASES / name).read_text(encoding="utf-8"))
    shapes: list[object] = [
        None,
        7,
        True,
        "x",
        "{{#",
        [],
        {},
        ["2000"],
        [1, 2],
        {"type": "variable", "value": [3]},
    ]
    paths: list[tuple[object, ...]] = []
    stack: list[tuple[object, tuple[object, ...]]] = [(clean, ())]
    while stack:
        value, path = stack.pop()
        paths.append(path)
        items = (
            value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        )
        stack.extend((child, (*path, key)) for key, child in items)
    for path in paths[1:]:
        for shape in shapes:
            data = json.loads(json.dumps(clean))
            parent = data
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = shape
            check(read_dsl(yaml.safe_dump(data, allow_unicode=True).encode(), "shape.yml"), catalog)
