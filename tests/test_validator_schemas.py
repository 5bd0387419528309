"""The published validator schemas: well-formed draft-07, usable alone by editors, every failure
mapped to a rule, and lenient about what Dify accepts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from generator.check.schema import RULES
from generator.ruleset import all_rules
from generator.schemas.validators import inline_definitions
from tests.validate_cases import CASES

NAMES = ("plugin_manifest", "tool_provider", "tool")
EXAMPLES = {
    "plugin_manifest": "manifest.yaml",
    "tool_provider": "provider/demo.yaml",
    "tool": "tools/echo.yaml",
}
# Keywords that can fail; a subschema using one must say which rule its failures belong to.
ASSERTING = {"type", "enum", "const", "pattern", "required", "minLength", "maxLength", "minimum", "maximum"}


def schema(repo: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((repo / "schemas" / "v1" / f"{name}.json").read_text(encoding="utf-8"))
    return data


def subschemas(node: Any) -> Iterator[dict[str, Any]]:
    """Every schema object, descending only where keywords hold schemas (not into `properties` names)."""
    if not isinstance(node, dict):
        return
    yield node
    for keyword in ("properties", "definitions"):
        for child in node.get(keyword, {}).values():
            yield from subschemas(child)
    for keyword in ("items", "additionalProperties"):
        yield from subschemas(node.get(keyword))


@pytest.mark.parametrize("name", NAMES)
def test_schema_is_published_draft_07(repo: Path, name: str) -> None:
    """`$schema`, `$id` at the served URL, a title and a description; valid draft-07."""
    data = schema(repo, name)
    assert data["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert data["$id"] == f"https://dify.ai/schemas/v1/{name}.json"
    assert data["title"]
    assert data["description"]
    jsonschema.Draft7Validator.check_schema(data)


@pytest.mark.parametrize("name", NAMES)
def test_every_failing_keyword_names_a_rule(repo: Path, name: str) -> None:
    """Each subschema that can fail carries an `x-rule` the validator defines."""
    known = set(all_rules())
    asserting = [node for node in subschemas(schema(repo, name)) if ASSERTING & set(node)]
    assert len(asserting) > 10
    for node in asserting:
        assert node.get("x-rule") in known, node
        assert node["x-rule"] in RULES


@pytest.mark.parametrize("name", NAMES)
def test_editors_get_the_same_answer(repo: Path, name: str) -> None:
    """The schema as published (with `$ref`s) and as compiled (inlined) agree on good and bad data."""
    data = schema(repo, name)
    published = jsonschema.Draft7Validator(data)
    compiled = jsonschema.Draft7Validator(inline_definitions(data))
    for case in sorted(CASES.glob("*/*")):
        path = case / EXAMPLES[name]
        if not path.is_file():
            continue
        try:
            instance = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError:
            continue
        expected = sorted(e.message for e in published.iter_errors(instance))
        assert sorted(e.message for e in compiled.iter_errors(instance)) == expected, path


@pytest.mark.parametrize("name", NAMES)
def test_unknown_keys_are_accepted(repo: Path, name: str) -> None:
    """Dify ignores keys it does not know, so the schemas must not refuse them."""
    instance = yaml.safe_load((CASES / "good" / "minimal" / EXAMPLES[name]).read_text(encoding="utf-8"))
    instance["x_custom"] = {"anything": [1, 2]}
    instance["identity" if "identity" in instance else "meta"]["extra_key"] = True
    assert list(jsonschema.Draft7Validator(schema(repo, name)).iter_errors(instance)) == []


def test_examples_reader_knows_the_keys_the_examples_schema_allows(repo: Path) -> None:
    """The examples reader flags keys outside tool_examples.json; its key lists follow the schema."""
    from generator.load.examples import EXAMPLE_KEYS, EXPECT_KEYS

    definitions = schema(repo, "tool_examples")["definitions"]
    assert definitions["example"]["additionalProperties"] is False
    assert set(EXAMPLE_KEYS) == set(definitions["example"]["properties"])
    assert definitions["expect"]["additionalProperties"] is False
    assert set(EXPECT_KEYS) == set(definitions["expect"]["properties"])
