"""`validate` resolves every `$ref` of tools' and datasources' output_schema offline."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.check import CheckContext
from generator.load.crawl import LoadedPlugin, load_plugin
from generator.schemas import RefKind, SchemaSet, analyse, referencing_tools, shipped_schemas
from tests.schema_helpers import repo_schemas
from tests.validating import validate_loaded

REF_RULES = {"O006", "O007", "O008", "O009"}


@pytest.fixture(scope="module")
def corpus_plugins(corpus: Path) -> list[LoadedPlugin]:
    """Every tool and datasource plugin of the corpus, loaded once, displayed as kind/name."""
    folders = sorted(p for kind in ("tools", "datasources") for p in (corpus / kind).iterdir())
    return [load_plugin(folder, f"{folder.parent.name}/{folder.name}") for folder in folders]


def _corpus_refs(plugins: list[LoadedPlugin], schemas: SchemaSet) -> dict[str, list[RefKind]]:
    found: dict[str, list[RefKind]] = {}
    for loaded in plugins:
        for relative, role in loaded.roles.items():
            data = loaded.documents[relative].data
            if role in ("tool", "datasource") and isinstance(data, dict):
                report = analyse(data.get("output_schema"), schemas)
                kinds = [ref.kind for ref in report.references]
                if kinds:
                    found[loaded.display_path(relative)] = kinds
    return found


def test_corpus_refs_resolve_offline(corpus_plugins: list[LoadedPlugin]) -> None:
    """Every $ref in the corpus resolves: ten in datasources, the rest in tools."""
    found = _corpus_refs(corpus_plugins, repo_schemas())
    kinds = [kind for refs in found.values() for kind in refs]
    assert set(kinds) == {RefKind.RESOLVED}
    datasource_refs = [k for path, refs in found.items() if path.startswith("datasources/") for k in refs]
    tool_refs = [k for path, refs in found.items() if path.startswith("tools/") for k in refs]
    assert len(datasource_refs) == 10
    # Dify's third referencing tool (general_chunk) is kept out of this corpus copy.
    assert len(tool_refs) >= 2


def test_corpus_has_no_reference_findings_and_no_errors(corpus_plugins: list[LoadedPlugin]) -> None:
    """Validating the corpus gives no reference finding and no output_schema error."""
    result = validate_loaded(corpus_plugins, (), CheckContext(schemas=repo_schemas()))
    ours = [d for d in result.findings if d.rule.startswith("O")]
    assert not [d for d in ours if d.rule in REF_RULES]
    assert not [d for d in ours if d.severity == "error"]
    assert {d.rule for d in ours} >= {"O002", "O004"}, "array[string] and arrays without items are found"


def test_referencing_tools(corpus: Path) -> None:
    """Each hosted schema lists the tools whose output_schema references it."""
    plugins = [
        load_plugin(corpus / "tools" / name, name) for name in ("qa_chunk", "parent_child_chunk", "maths")
    ]
    users = referencing_tools(plugins, repo_schemas())
    qa = users["https://dify.ai/schemas/v1/qa_structure.json"]
    assert [(k.plugin, k.tool) for k in qa] == [("qa_chunk", "qa_chunk")]
    assert len(users["https://dify.ai/schemas/v1/parent_child_structure.json"]) == 1
    assert users["https://dify.ai/schemas/v1/file.json"] == ()


def test_shipped_schemas_without_a_registry() -> None:
    """A plugin folder on its own is checked against the generator's shipped schemas."""
    assert shipped_schemas().ids == repo_schemas().ids


def test_a_repeated_schema_is_found_at_its_place_in_each_file(tmp_path: Path) -> None:
    """Two tools with the same faulty output_schema at different lines: each finding points into its
    own file, at its own line (the schema's findings are worked out once and placed in each)."""
    import random

    import yaml

    from benchmarks.synthetic import make_plugin

    folder = tmp_path / "plugin"
    make_plugin(folder, 0, 2, random.Random(0))
    schema = {"type": "object", "properties": {"items": {"type": "array"}, "text": {"type": "string"}}}
    tools = folder / "tools"
    data = yaml.safe_load((tools / "tool_000.yaml").read_text(encoding="utf-8"))
    data["output_schema"] = schema
    first_text = yaml.safe_dump(data, sort_keys=False)
    (tools / "tool_000.yaml").write_text(first_text, encoding="utf-8")
    (tools / "tool_001.yaml").write_text("\n\n\n" + first_text, encoding="utf-8")
    loaded = load_plugin(folder, "p")
    result = validate_loaded([loaded], (), CheckContext(schemas=shipped_schemas()))
    found = sorted((d.file, d.line, d.rule) for d in result.findings if d.rule in ("O004", "O022"))
    first = [(line, rule) for file, line, rule in found if file.endswith("tool_000.yaml")]
    second = [(line, rule) for file, line, rule in found if file.endswith("tool_001.yaml")]
    assert {rule for _, rule in first} == {"O004", "O022"}
    lines = first_text.splitlines()
    assert all(lines[line - 1].strip().startswith(("items:", "type: array", "text:")) for line, _ in first)
    # Same content below three more lines: same findings, three lines down.
    assert second == [(line + 3, rule) for line, rule in first]
