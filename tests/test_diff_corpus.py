"""`diff` on real plugins: each against itself reports nothing, and each against a copy with one
random interface change finds that change (a property test over 100 plugins of the shared corpus).

The copy holds only the YAML files the loader read, rewritten after one change to their data; the
random choice is seeded by the plugin's name, so a failure names a plugin and repeats.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.diff.changes import class_of
from generator.diff.compare import compare
from generator.load.crawl import LoadedPlugin, load_plugin
from generator.schemas import shipped_schemas
from tests.conftest import CORPUS

SAMPLE = 100
pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"the shared corpus is missing: {CORPUS}")


def corpus_plugins() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    kinds = [sorted((CORPUS / kind).iterdir()) for kind in ("tools", "datasources")]
    return [p for folders in kinds for p in folders if p.is_dir()][:SAMPLE]


@dataclass(frozen=True)
class Mutation:
    """One interface change made to a copy: the rule that must find it, the other rules it may
    cause (a type change inside an object), and the name the finding must mention."""

    rule: str
    mentions: str
    apply: Callable[[dict[str, Any]], None]
    also: frozenset[str] = frozenset()


Documents = dict[str, Any]  # relative path -> YAML data of the copy


def _tools(loaded: LoadedPlugin) -> list[tuple[str, Any]]:
    plugin = loaded.plugin
    return [(t.file, t) for t in plugin.tools] if plugin else []


def _parameter_mutations(loaded: LoadedPlugin, rng: random.Random) -> list[Mutation]:
    found: list[Mutation] = []
    for file, tool in _tools(loaded):
        entries = [p for p in tool.parameters if p.name]
        names = [p.name for p in entries]
        if len(set(names)) != len(names) or not entries:
            continue
        parameter = rng.choice(entries)
        index = int(parameter.origin.pointer.rsplit("/", 1)[1])

        def edit(docs: Documents, file: str = file, index: int = index, **change: Any) -> None:
            docs[file]["parameters"][index].update(change)

        def drop(docs: Documents, file: str = file, index: int = index) -> None:
            del docs[file]["parameters"][index]

        name = parameter.name
        found.append(Mutation("D010", name, drop))
        if parameter.label.en and [p.label.en for p in entries].count(parameter.label.en) == 1:
            renamed = f"{name}_renamed"
            found.append(Mutation("D011", renamed, partial(edit, name=renamed)))
        if not parameter.required:
            found.append(Mutation("D014", name, partial(edit, required=True)))
        other = "number" if parameter.type != "number" else "string"
        found.append(Mutation("D019", name, partial(edit, type=other)))
        form = "form" if parameter.form != "form" else "llm"
        found.append(Mutation("D020", name, partial(edit, form=form)))
        if parameter.options and len({o.value for o in parameter.options}) == len(parameter.options):
            value = rng.choice(parameter.options).value

            def cut(docs: Documents, file: str = file, index: int = index, value: str = value) -> None:
                spec = docs[file]["parameters"][index]
                spec["options"] = [o for o in spec["options"] if str(o.get("value")) != value]

            found.append(Mutation("D022", value, cut, frozenset({"D016", "D018"})))

        def add(docs: Documents, file: str = file) -> None:
            docs[file]["parameters"].append(
                {"name": "added_by_test", "type": "string", "required": True, "form": "form", "label": {}}
            )

        found.append(Mutation("D012", "added_by_test", add))
    return found


def _output_mutations(loaded: LoadedPlugin, rng: random.Random) -> list[Mutation]:
    found: list[Mutation] = []
    for file, tool in _tools(loaded):
        schema = tool.output_schema
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(properties, dict) or not properties:
            continue
        name = rng.choice(sorted(properties))

        def drop(docs: Documents, file: str = file, name: str = name) -> None:
            del docs[file]["output_schema"]["properties"][name]

        found.append(Mutation("D030", name, drop, frozenset({"D033"})))
        spec = properties[name]
        if isinstance(spec, dict) and isinstance(spec.get("type"), str) and "$ref" not in spec:
            other = "boolean" if spec["type"] != "boolean" else "string"

            def retype(docs: Documents, file: str = file, name: str = name, other: str = other) -> None:
                docs[file]["output_schema"]["properties"][name]["type"] = other

            found.append(Mutation("D032", name, retype, frozenset({"D030"})))
    return found


def _plugin_mutations(loaded: LoadedPlugin) -> list[Mutation]:
    plugin = loaded.plugin
    assert plugin is not None

    def raise_minimum(docs: Documents) -> None:
        docs["manifest.yaml"].setdefault("meta", {})["minimum_dify_version"] = "9.9.9"

    def runner(docs: Documents) -> None:
        docs["manifest.yaml"]["meta"]["runner"]["version"] = "3.99"

    def permission(docs: Documents) -> None:
        resource = docs["manifest.yaml"].setdefault("resource", {})
        granted = resource.get("permission") if isinstance(resource.get("permission"), dict) else {}
        resource["permission"] = granted
        granted["storage_by_test"] = {"enabled": True}

    found = [
        Mutation("D050", "9.9.9", raise_minimum),
        Mutation("D054", "3.99", runner),
        Mutation("D051", "storage_by_test.enabled", permission),
    ]
    for provider in plugin.providers:
        if provider.tools:
            tool = provider.tools[-1]

            def remove(docs: Documents, file: str = provider.file, tool_file: str = tool.file) -> None:
                docs[file]["tools"] = [t for t in docs[file]["tools"] if not str(t).endswith(tool_file)]

            found.append(Mutation("D002", f"{provider.name}/{tool.name}", remove))

        def credential(docs: Documents, file: str = provider.file) -> None:
            spec = {"type": "secret-input", "required": True, "label": {"en_US": "Added"}}
            credentials = docs[file].get("credentials_for_provider")
            if isinstance(credentials, list):
                credentials.append({"name": "added_by_test", **spec})
            else:
                docs[file]["credentials_for_provider"] = {**(credentials or {}), "added_by_test": spec}

        found.append(Mutation("D040", "added_by_test", credential))
    return found


def mutations(loaded: LoadedPlugin, rng: random.Random) -> list[Mutation]:
    """Every change this test knows how to make to this plugin."""
    return [*_parameter_mutations(loaded, rng), *_output_mutations(loaded, rng), *_plugin_mutations(loaded)]


def pick(loaded: LoadedPlugin, rng: random.Random) -> Mutation:
    """A random kind of change among those this plugin allows, then a random instance of it: every
    kind gets its share, not only the kinds a plugin offers many places for."""
    by_rule: dict[str, list[Mutation]] = {}
    for mutation in mutations(loaded, rng):
        by_rule.setdefault(mutation.rule, []).append(mutation)
    return rng.choice(by_rule[rng.choice(sorted(by_rule))])


def write_copy(loaded: LoadedPlugin, target: Path, mutation: Mutation) -> None:
    """The YAML files of `loaded`, one change made, written under `target`."""
    docs = {name: document.data for name, document in loaded.documents.items()}
    docs = yaml.safe_load(yaml.safe_dump(docs))  # a deep copy of plain data
    mutation.apply(docs)
    for name, data in docs.items():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


PLUGINS = corpus_plugins()


def test_the_sample_is_100_plugins() -> None:
    """The property runs over 100 real plugins."""
    assert len(PLUGINS) == SAMPLE


@pytest.mark.parametrize("folder", PLUGINS, ids=[p.name for p in PLUGINS])
def test_plugin_against_itself_reports_nothing(folder: Path) -> None:
    """A plugin compared with itself has no finding at all."""
    loaded = load_plugin(folder, folder.name)
    assert compare(loaded, loaded, shipped_schemas()).findings == ()


@pytest.mark.parametrize("folder", PLUGINS, ids=[p.name for p in PLUGINS])
def test_one_random_change_is_found(folder: Path, tmp_path: Path) -> None:
    """One random interface change made to a copy is found, named, and needs a new version."""
    old = load_plugin(folder, "old")
    mutation = pick(old, random.Random(folder.name))
    write_copy(old, tmp_path / "new", mutation)
    new = load_plugin(tmp_path / "new", "new")
    comparison = compare(old, new, shipped_schemas())
    changes = [d for d in comparison.changes if class_of(d) is not None]
    found = [d for d in changes if d.rule == mutation.rule and mutation.mentions in d.message]
    shown = [(d.rule, d.message) for d in changes]
    assert found, (mutation.rule, mutation.mentions, shown)
    assert {d.rule for d in changes} <= {mutation.rule, *mutation.also}, shown
    # The copy keeps the version: any change then needs a new one.
    assert [d.rule for d in comparison.verdict.findings] == ["D061"]
