"""The registry's own plugins: loadable, documented by valid examples, and covering every output schema.

Running the examples for real is the runner's job; these tests check everything that can be known
without running tool code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from generator.check import CheckContext
from generator.check.all_checks import check_plugin
from generator.findings import Severity
from generator.load.crawl import LoadedPlugin, load_plugin
from generator.load.paths import resolve_inside
from generator.load.yamlload import read_yaml
from generator.plugin_model import LANGUAGES, I18n, Plugin, Tool
from tests.conftest import REPO
from tests.schema_helpers import OUTPUT_SCHEMAS

PLUGINS = REPO / "plugins"
EXAMPLES_SCHEMA = REPO / "schemas" / "v1" / "tool_examples.json"
EXAMPLES_SCHEMA_V2 = REPO / "schemas" / "v2" / "tool_examples.json"
# The registry's plugins that call a web API, and its host (recorded examples, see docs/recording.md).
API_HOSTS = {"book_finder": "books.registry-examples.org", "rate_converter": "rates.registry-examples.org"}
HOSTED = {f"https://dify.ai/schemas/v1/{name}.json" for name in OUTPUT_SCHEMAS}
FILE_TYPES = {"file", "files"}
# Tags the plugin daemon accepts, and the version pattern it enforces.
ALLOWED_TAGS = {
    *("search", "image", "videos", "weather", "finance", "design", "travel", "social", "news", "medical"),
    *("productivity", "education", "business", "entertainment", "utilities", "agent", "rag", "other"),
    "trigger",
}
VERSION = re.compile(r"^\d{1,4}(\.\d{1,4}){2}(-\w{1,16})?$")
# Every kind of message a tool can yield, by the SDK helper that builds it.
MESSAGE_HELPERS = (
    "create_text_message",
    "create_link_message",
    "create_image_message",
    "create_blob_message",
    "create_json_message",
    "create_variable_message",
    "create_stream_variable_message",
    "create_log_message",
)

PLUGIN_DIRS = sorted(p for p in PLUGINS.iterdir() if (p / "manifest.yaml").is_file())


def loaded(root: Path) -> LoadedPlugin:
    return load_plugin(root, f"plugins/{root.name}")


def model(root: Path) -> Plugin:
    plugin = loaded(root).plugin
    assert plugin is not None, f"{root.name}: the manifest did not load"
    return plugin


def tools(plugin: Plugin) -> Iterator[Tool]:
    for provider in plugin.providers:
        yield from provider.tools


def examples_path(root: Path, tool: Tool) -> Path:
    yaml_file = root / tool.file
    return yaml_file.with_name(yaml_file.name.removesuffix(".yaml") + ".examples.yaml")


def read(path: Path) -> Any:
    document = read_yaml(path.read_bytes(), str(path))
    assert document.ok, [d.message for d in document.findings]
    return document.data


def all_tools() -> list[tuple[Path, Tool]]:
    return [(root, tool) for root in PLUGIN_DIRS for tool in tools(model(root))]


def refs(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from refs(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from refs(item)


def label_texts(plugin: Plugin) -> Iterator[I18n]:
    yield plugin.label
    yield plugin.description
    for provider in plugin.providers:
        yield provider.label
        for tool in provider.tools:
            yield tool.label
            yield tool.description
            for parameter in tool.parameters:
                yield parameter.label
                yield from (option.label for option in parameter.options)


def tool_id(case: tuple[Path, Tool]) -> str:
    return f"{case[0].name}/{case[1].name}"


@pytest.fixture(scope="module")
def examples_validators() -> dict[str, jsonschema.Draft7Validator]:
    """The published versions of the examples format, by URL."""
    found = {}
    for path in (EXAMPLES_SCHEMA, EXAMPLES_SCHEMA_V2):
        schema = json.loads(path.read_text(encoding="utf-8"))
        found[schema["$id"]] = jsonschema.Draft7Validator(schema)
    return found


def test_examples_v2_adds_only_credentials_from_the_environment() -> None:
    """Version 2 of the examples format is version 1 plus `{env: NAME}` credentials."""
    first = json.loads(EXAMPLES_SCHEMA.read_text(encoding="utf-8"))
    second = json.loads(EXAMPLES_SCHEMA_V2.read_text(encoding="utf-8"))
    for schema in (first, second):
        del schema["$id"], schema["version"], schema["description"]
        del schema["definitions"]["example"]["properties"]["credentials"]
    assert first == second
    document = {"examples": [{"name": "a", "inputs": {}, "credentials": {"api_key": {"env": "API_KEY"}}}]}
    assert (
        list(jsonschema.Draft7Validator(json.loads(EXAMPLES_SCHEMA_V2.read_text())).iter_errors(document))
        == []
    )
    assert (
        list(jsonschema.Draft7Validator(json.loads(EXAMPLES_SCHEMA.read_text())).iter_errors(document)) != []
    )


def test_there_are_at_least_six_plugins() -> None:
    """The catalog has at least six plugins of the registry's own."""
    assert len(PLUGIN_DIRS) >= 6


def test_examples_schema_is_a_published_draft07_schema() -> None:
    """The examples format is a valid draft-07 schema served at its $id."""
    schema = json.loads(EXAMPLES_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["$id"] == "https://dify.ai/schemas/v1/tool_examples.json"
    assert schema["title"]
    assert schema["description"]


@pytest.mark.parametrize(
    ("document", "valid"),
    [
        ({"examples": [{"name": "a-1", "inputs": {}}]}, True),
        ({"examples": []}, False),
        ({"examples": [{"name": "Upper", "inputs": {}}]}, False),
        ({"examples": [{"name": "a"}]}, False),
        ({"examples": [{"name": "a", "inputs": {}, "expect": {"variables": {"json": 1}}}]}, False),
        ({"examples": [{"name": "a", "inputs": {}, "files": {"f": {"path": "../secret"}}}]}, False),
        ({"examples": [{"name": "a", "inputs": {}, "files": {"f": {"path": "/etc/passwd"}}}]}, False),
        ({"examples": [{"name": "a", "inputs": {}, "files": {"f": [{"path": "x/y.csv"}]}}]}, True),
        ({"examples": [{"name": "a", "inputs": {}, "description": {"zh_Hans": "x"}}]}, False),
        ({"examples": [{"name": "a", "inputs": {}, "expect": {"text": 1}}]}, False),
        ({"examples": [{"name": "a", "inputs": {}, "surprise": True}]}, False),
    ],
)
def test_examples_schema_accepts_and_refuses(
    examples_validators: dict[str, jsonschema.Draft7Validator], document: Any, valid: bool
) -> None:
    """Both versions enforce names, reserved variables, relative file paths and i18n descriptions."""
    assert {v.is_valid(document) for v in examples_validators.values()} == {valid}


@pytest.mark.parametrize("root", PLUGIN_DIRS, ids=lambda p: p.name)
def test_plugin_loads_without_errors(root: Path) -> None:
    """The registry's loader reads every plugin with no error finding."""
    result = loaded(root)
    errors = [d for d in result.findings if d.severity is Severity.ERROR]
    assert result.plugin is not None
    assert not errors, [f"{d.file}:{d.line}: {d.rule} {d.message}" for d in errors]
    assert list(tools(result.plugin)), "a plugin without tools"


@pytest.mark.parametrize("root", PLUGIN_DIRS, ids=lambda p: p.name)
def test_manifest_meets_daemon_and_marketplace_rules(root: Path) -> None:
    """Versions, author, runner, tags and the files the marketplace asks for are right."""
    manifest = read(root / "manifest.yaml")
    assert VERSION.match(manifest["version"])
    assert VERSION.match(manifest["meta"]["version"])
    assert re.fullmatch(r"[a-z0-9_-]{1,64}", manifest["author"])
    assert manifest["author"] not in {"langgenius", "dify"}
    assert manifest["meta"]["runner"] == {"language": "python", "version": "3.12", "entrypoint": "main"}
    assert set(manifest["meta"]["arch"]) == {"amd64", "arm64"}
    assert VERSION.match(manifest["meta"]["minimum_dify_version"])
    assert set(manifest["tags"]) <= ALLOWED_TAGS
    assert (root / "_assets" / manifest["icon"]).is_file()
    assert manifest["repo"].startswith("https://")
    assert re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]+", manifest["contact"])
    privacy = (root / manifest["privacy"]).read_text(encoding="utf-8")
    assert len(privacy) > 200
    assert "Please fill in" not in privacy
    assert (root / "main.py").is_file()
    requirements = (root / "requirements.txt").read_text(encoding="utf-8").split()
    assert "dify_plugin>=0.9.0,<0.11" in requirements


@pytest.mark.parametrize("root", PLUGIN_DIRS, ids=lambda p: p.name)
def test_plugin_passes_the_submission_checks_without_a_finding(root: Path) -> None:
    """`validate --submission` finds nothing in the registry's own plugins: no secret, binary,
    safety or dependency finding; only the plugins that call a web API get the access-domain note,
    naming their API's host."""
    found = check_plugin(load_plugin(root, root.name), CheckContext(submission=True))
    api = API_HOSTS.get(root.name, "")
    notes = [d for d in found if d.rule == "U028"]
    assert [f"{d.file}:{d.line}: {d.rule} {d.message}" for d in found if d.rule != "U028"] == []
    assert [api in d.message for d in notes] == ([True] if api else [])


@pytest.mark.parametrize("root", PLUGIN_DIRS, ids=lambda p: p.name)
def test_readme_is_english_and_links_its_source(root: Path) -> None:
    """The README has no CJK text outside code blocks and links the source repository."""
    readme = (root / "README.md").read_text(encoding="utf-8")
    prose = re.sub(r"```.*?```", "", readme, flags=re.S)
    assert not re.search(r"[\u3040-\u30ff\u3400-\u9fff]", prose)
    assert f"/plugins/{root.name}" in readme


@pytest.mark.parametrize("root", PLUGIN_DIRS, ids=lambda p: p.name)
def test_yaml_files_name_their_schema(root: Path) -> None:
    """Every YAML file starts with the yaml-language-server line of its published schema."""
    plugin = loaded(root)
    expected = {"manifest": "plugin_manifest", "tools provider": "tool_provider", "tool": "tool"}
    for relative, role in plugin.roles.items():
        first = (root / relative).read_text(encoding="utf-8").splitlines()[0]
        assert first == f"# yaml-language-server: $schema=https://dify.ai/schemas/v1/{expected[role]}.json"


@pytest.mark.parametrize("root", PLUGIN_DIRS, ids=lambda p: p.name)
def test_permissions_match_what_the_code_uses(root: Path) -> None:
    """A plugin asks for storage exactly when its code uses the session storage."""
    manifest = read(root / "manifest.yaml")
    code = "\n".join(p.read_text(encoding="utf-8") for p in root.rglob("*.py"))
    storage = manifest["resource"]["permission"].get("storage", {})
    assert bool(storage.get("enabled")) == ("session.storage" in code)
    assert "session.tool" not in code
    assert "session.model" not in code


@pytest.mark.parametrize("case", all_tools(), ids=tool_id)
def test_every_tool_has_valid_examples(
    case: tuple[Path, Tool], examples_validators: dict[str, jsonschema.Draft7Validator]
) -> None:
    """Each tool's examples file names a published version of the format and matches it, with
    unique names."""
    root, tool = case
    path = examples_path(root, tool)
    assert path.is_file(), f"{tool.name}: no {path.name}"
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    named = first.removeprefix("# yaml-language-server: $schema=")
    assert named in examples_validators, first
    data = read(path)
    errors = [f"{e.json_path}: {e.message}" for e in examples_validators[named].iter_errors(data)]
    assert not errors
    names = [example["name"] for example in data["examples"]]
    assert len(names) == len(set(names)), names


@pytest.mark.parametrize("case", all_tools(), ids=tool_id)
def test_example_inputs_are_parameters_of_the_tool(case: tuple[Path, Tool]) -> None:
    """Inputs name parameters, files name file parameters, and required parameters are given."""
    root, tool = case
    parameters = {p.name: p for p in tool.parameters}
    required = {p.name for p in tool.parameters if p.required}
    for example in read(examples_path(root, tool))["examples"]:
        inputs, files = example["inputs"], example.get("files", {})
        where = f"{tool.name}/{example['name']}"
        assert set(inputs) <= set(parameters), f"{where}: unknown {set(inputs) - set(parameters)}"
        assert all(parameters[name].type in FILE_TYPES for name in files), where
        assert not any(parameters[name].type in FILE_TYPES for name in inputs), where
        assert required <= set(inputs) | set(files), f"{where}: missing {required - set(inputs) - set(files)}"
        for name, value in inputs.items():
            options = {option.value for option in parameters[name].options}
            assert not options or value in options, f"{where}: {name}={value!r} is not an option"
        for ref in (r for entry in files.values() for r in (entry if isinstance(entry, list) else [entry])):
            resolved = resolve_inside(root, ref["path"])
            assert resolved.path is not None, f"{where}: {ref['path']} {resolved.problem}"
            assert resolved.path.is_file(), f"{where}: {ref['path']} does not exist"


@pytest.mark.parametrize("case", all_tools(), ids=tool_id)
def test_examples_set_only_declared_variables(case: tuple[Path, Tool]) -> None:
    """Expected variables are declared in output_schema, and every declared one is expected somewhere
    or the tool yields it unconditionally (it appears in a create_variable_message call)."""
    root, tool = case
    declared = set((tool.output_schema or {}).get("properties", {}))
    expected = {
        name
        for example in read(examples_path(root, tool))["examples"]
        for name in example.get("expect", {}).get("variables", {})
    }
    assert expected <= declared, expected - declared
    code = (root / tool.source).read_text(encoding="utf-8")
    for name in declared - expected:
        assert re.search(rf"create_(?:stream_)?variable_message\(\s*\"{name}\"", code), name


@pytest.mark.parametrize("case", all_tools(), ids=tool_id)
def test_tools_reference_only_hosted_schemas(case: tuple[Path, Tool]) -> None:
    """A tool's output_schema $refs only the six schemas Dify hosts, at property level."""
    _, tool = case
    schema = tool.output_schema or {}
    assert schema.get("type") == "object"
    assert set(refs(schema)) <= HOSTED
    assert "$ref" not in schema


def test_plugins_cover_every_hosted_schema() -> None:
    """Together the plugins reference all six hosted output schemas."""
    used = {ref for _, tool in all_tools() for ref in refs(tool.output_schema)}
    assert used == HOSTED


def test_plugins_use_every_message_kind() -> None:
    """Together the tools yield every kind of message the SDK can build."""
    code = "\n".join(p.read_text(encoding="utf-8") for p in PLUGINS.glob("*/tools/*.py"))
    missing = [helper for helper in MESSAGE_HELPERS if f"self.{helper}(" not in code]
    assert not missing
    assert re.search(r"create_blob_message\([^)]*\"mime_type\"", code, flags=re.S)
    assert "self.session.file.upload(" in code


def test_some_plugin_credentials_are_declared() -> None:
    """At least one plugin has provider credentials, and its examples give them."""
    with_credentials = [
        (root, provider) for root in PLUGIN_DIRS for provider in model(root).providers if provider.credentials
    ]
    assert with_credentials
    for root, provider in with_credentials:
        required = {c.name for c in provider.credentials if c.required}
        for tool in provider.tools:
            for example in read(examples_path(root, tool))["examples"]:
                assert required <= set(example.get("credentials", {})), (tool.name, example["name"])


def test_translations_are_mostly_complete_with_fallbacks_somewhere() -> None:
    """Most plugins have every label in all four languages; at least one lacks some."""
    complete = [
        root.name
        for root in PLUGIN_DIRS
        if all(text.has(language) for text in label_texts(model(root)) for language in LANGUAGES)
    ]
    assert len(complete) > len(PLUGIN_DIRS) / 2, complete
    assert len(complete) < len(PLUGIN_DIRS), "no plugin shows the fallback to en_US"
