"""Read a tool's examples file (`tools/x.yaml` -> `tools/x.examples.yaml`), or make smoke inputs
from its parameters when there is none."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from generator.findings import Finding, Location, Severity
from generator.load.crawl import EXAMPLES_SUFFIX, LoadedPlugin
from generator.load.registry_examples import fitting, stale_findings
from generator.load.yamlload import YamlDocument, read_yaml
from generator.plugin_model import I18n, Parameter, Tool
from generator.rules import Rule, rule

if TYPE_CHECKING:
    from generator.kind_models.trigger import Event

EXAMPLE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
MAX_INPUT_FILE = 16 * 1024 * 1024
MAX_EXAMPLES_BYTES = 8 * 1024 * 1024
# Bounds for a stranger's examples file: each example is a sandboxed run, and each input problem a
# finding; past these the rest is summed up in one finding instead of costing the run.
MAX_EXAMPLES = 100
MAX_INPUT_FINDINGS = 100
MAX_SUGGESTED_FROM = 1000
MAX_UNKNOWN_KEYS = 20  # listed per mapping

BAD_EXAMPLES = rule(
    "R030",
    "examples-file-invalid",
    Severity.ERROR,
    "examples file: {problem}",
    "Follow the examples format (https://dify.ai/schemas/v1/tool_examples.json), see docs/runner.",
    """
The tool's examples file cannot be used as written: it is not a mapping with an `examples` list,
an example has no valid unique `name`, `inputs` is not a mapping, or an input file is missing or
lies outside the plugin. The example is skipped; the rest still run. A key the format does not
know (a misspelt `expect`, say) is reported too, and the example runs without it. Only the first
100 examples of a file are read.
""",
)
SMOKE_RUN = rule(
    "R031",
    "smoke-run",
    Severity.INFO,
    "no examples file ({path}); ran once with inputs made from the parameters",
    "Add {path} with named examples so the registry shows real runs and checks expectations.",
    """
A tool without an examples file is run once with inputs made from its parameters (defaults, the
first option of a select, a typed placeholder). The run shows that the tool loads and returns
something; it cannot check what a real input should give.
""",
)
UNKNOWN_INPUT = rule(
    "R033",
    "example-unknown-parameter",
    Severity.ERROR,
    "example {example}: `{key}` under `{part}` is not a parameter of the tool",
    "{suggestion}",
    """
Every key under an example's `inputs` and `files` must be one of the tool's parameters. A workflow
only ever passes declared parameters, so a misspelt name tests a call Dify never makes, and the
parameter it was meant for is missing from the run.
""",
)
MISSING_INPUT = rule(
    "R034",
    "example-required-parameter-missing",
    Severity.ERROR,
    "example {example}: the required parameter `{key}` has no value and no default",
    "Give `{key}` under `{part}`, as every workflow that calls the tool must.",
    """
Dify does not call a tool without a value for each required parameter that has no default. An
example that leaves one out runs a call that cannot happen in a workflow.
""",
)
# What a plugin's examples file is told when it does not fit the tool; for the registry's file the
# same problems mean that the overlay is stale (`registry_examples.stale_findings`).
MISFITS = frozenset({UNKNOWN_INPUT, MISSING_INPUT})
FILE_TYPES = frozenset({"file", "files"})
# The keys tool_examples.json allows (a test keeps them equal): any other key would be ignored
# silently, and a misspelt `expect` would leave every expectation unchecked.
EXAMPLE_KEYS = ("name", "description", "inputs", "credentials", "files", "expect")
EXPECT_KEYS = ("variables", "text", "text_contains", "json", "files")


@dataclass(frozen=True, slots=True)
class InputFile:
    """A file handed to a file parameter: path inside the plugin, MIME type, bytes."""

    filename: str
    mime_type: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Example:
    """One named case of a tool."""

    name: str
    inputs: MappingProxyType[str, Any]
    credentials: MappingProxyType[str, Any]
    files: MappingProxyType[str, tuple[InputFile, ...] | InputFile]
    expect: MappingProxyType[str, Any]
    smoke: bool
    origin: Location
    source_file: str = ""
    raw: Any = field(default=None, compare=False)
    description: I18n = field(default_factory=I18n)
    # The run with only the required parameters set, as a workflow calls a tool whose optional
    # fields were left empty; its findings are reported, the run itself is not shown.
    required_only: bool = False


def examples_path(part: Tool | Event) -> str:
    """The examples file that belongs to a tool or trigger event YAML (same folder, same stem)."""
    path = PurePosixPath(part.file)
    return str(path.with_name(path.stem + EXAMPLES_SUFFIX))


def load_examples(
    loaded: LoadedPlugin, tool: Tool, smoke: Callable[[Tool], Example] | None = None
) -> tuple[list[Example], list[Finding]]:
    """The tool's examples, or the one example `smoke` makes when it has no examples file (none
    without `smoke`: the validator reads examples files only where they exist)."""
    relative = examples_path(tool)
    overlay = loaded.registry_examples
    if overlay is not None and examples_origin(loaded, tool):
        # The registry's examples for a plugin it does not own; its misfits mean it is stale.
        view = overlay.as_plugin(loaded)
        read, problems = view.reader.derived(
            "examples", relative, lambda: _read_examples(view, tool, relative)
        )
        stale = stale_findings(problems, MISFITS)
        kept = fitting(read, stale)
        if kept or not smoke:
            return kept, stale
        where = Location(loaded.display_path(tool.file), 1, 1)
        return [smoke(tool)], [*stale, SMOKE_RUN.at(where, path=relative)]
    if not loaded.reader.is_file(relative):
        if not smoke:
            return [], []
        where = Location(loaded.display_path(tool.file), 1, 1)
        return [smoke(tool)], [SMOKE_RUN.at(where, path=relative)]
    # Read and checked once: the validator's check and the run planner ask for the same examples.
    examples, findings = loaded.reader.derived(
        "examples", relative, lambda: _read_examples(loaded, tool, relative)
    )
    return list(examples), list(findings)


def examples_origin(loaded: LoadedPlugin, part: Tool | Event) -> str:
    """Where a tool's or trigger event's examples come from when the registry supplies them (its
    overlay file's display path); "" when they are the plugin's own, or there are none."""
    relative = examples_path(part)
    overlay = loaded.registry_examples
    return overlay.display_path(relative) if overlay is not None and relative in overlay.supplied else ""


def _read_examples(
    loaded: LoadedPlugin, tool: Tool, relative: str
) -> tuple[tuple[Example, ...], tuple[Finding, ...]]:
    raw = loaded.reader.head(relative, MAX_EXAMPLES_BYTES) or b""
    document = read_yaml(raw, loaded.display_path(relative))
    findings = list(document.findings)
    if not document.ok:
        return (), tuple(findings)
    entries = document.data.get("examples") if isinstance(document.data, dict) else None
    if not isinstance(entries, list):
        findings.append(BAD_EXAMPLES.at(document.at(), problem="expected a mapping with an `examples` list"))
        return (), tuple(findings)
    examples: list[Example] = []
    seen: set[str] = set()
    read: list[tuple[int, Example]] = []
    for index, entry in enumerate(entries[:MAX_EXAMPLES]):
        example = _example(loaded, document, index, entry, seen, findings)
        if example is not None:
            read.append((index, example))
            examples.append(example)
    # The problems are made lazily: only one past the limit is ever built.
    every = chain.from_iterable(_input_findings(tool, document, index, example) for index, example in read)
    problems = list(islice(every, MAX_INPUT_FINDINGS + 1))
    findings.extend(problems[:MAX_INPUT_FINDINGS])
    if len(problems) > MAX_INPUT_FINDINGS:
        problem = f"more inputs name no parameter or miss a required one than the {MAX_INPUT_FINDINGS} listed"
        findings.append(BAD_EXAMPLES.at(document.at("examples"), problem=problem))
    if len(entries) > MAX_EXAMPLES:
        problem = f"the file holds {len(entries)} examples; only the first {MAX_EXAMPLES} are read and run"
        findings.append(BAD_EXAMPLES.at(document.at("examples", MAX_EXAMPLES), problem=problem))
    return tuple(examples), tuple(findings)


def entry_parts(
    document: YamlDocument, index: int, entry: Any, seen: set[str], keys: tuple[str, ...], bad: Rule
) -> tuple[str, dict[str, dict[str, Any]]] | Finding:
    """An examples file's entry `index`: its name (unique in the file, added to `seen`) and each of
    `keys` as a mapping (absent or empty is `{}`); or the finding that says why it has not that shape.
    Tool and event examples share this shape; their own keys differ."""
    if not isinstance(entry, dict):
        return bad.at(document.at("examples", index), problem=f"example {index} is not a mapping")
    name = entry.get("name")
    if not isinstance(name, str) or not EXAMPLE_NAME.match(name) or name in seen:
        problem = f"example {index} needs a unique `name` matching {EXAMPLE_NAME.pattern}"
        return bad.at(document.at("examples", index, "name"), problem=problem)
    seen.add(name)
    parts = {key: entry.get(key) or {} for key in keys}
    for key, value in parts.items():
        if not isinstance(value, dict):
            return bad.at(
                document.at("examples", index, key), problem=f"example {name}: `{key}` must be a mapping"
            )
    return name, parts


def _example(
    loaded: LoadedPlugin,
    document: YamlDocument,
    index: int,
    entry: Any,
    seen: set[str],
    findings: list[Finding],
) -> Example | None:
    where = document.at("examples", index)
    shaped = entry_parts(
        document, index, entry, seen, ("inputs", "credentials", "files", "expect"), BAD_EXAMPLES
    )
    if isinstance(shaped, Finding):
        findings.append(shaped)
        return None
    name, parts = shaped
    for key, value in parts["credentials"].items():
        if not _credential_value(value):
            problem = (
                f"example {name}: credential `{key}` must be a value (text, number, boolean) "
                "or {env: VARIABLE_NAME}"
            )
            findings.append(
                BAD_EXAMPLES.at(document.at("examples", index, "credentials", key), problem=problem)
            )
            return None
    findings.extend(unknown_keys(document, ("examples", index), entry, EXAMPLE_KEYS, name))
    findings.extend(unknown_keys(document, ("examples", index, "expect"), parts["expect"], EXPECT_KEYS, name))
    files = _files(loaded, document, index, parts["files"], findings)
    if files is None:
        return None
    return Example(
        name=name,
        inputs=MappingProxyType(dict(parts["inputs"])),
        credentials=MappingProxyType(dict(parts["credentials"])),
        files=MappingProxyType(files),
        expect=MappingProxyType(dict(parts["expect"])),
        smoke=False,
        origin=where,
        source_file=document.path,
        raw=entry,
        description=I18n.of(entry.get("description")),
    )


ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _credential_value(value: Any) -> bool:
    """A written value, or `{env: NAME}` (read from the environment when recording)."""
    if value is None or isinstance(value, str | int | float | bool):
        return True
    return isinstance(value, dict) and set(value) == {"env"} and bool(ENV_NAME.match(str(value["env"])))


def unknown_keys(
    document: YamlDocument,
    at: tuple[str | int, ...],
    mapping: dict[Any, Any],
    known: tuple[str, ...],
    name: str,
    problem_rule: Rule = BAD_EXAMPLES,
) -> list[Finding]:
    """A finding of `problem_rule` for each key of `mapping` (at `at` in an examples file) that the format
    does not know, with the known key it most likely meant."""
    findings: list[Finding] = []
    unknown = [key for key in mapping if key not in known]
    for key in unknown[:MAX_UNKNOWN_KEYS]:
        close = closest(key, known)
        hint = f"; did you mean `{close}`?" if close else f"; use {', '.join(known)}"
        said = f"example {name}: `{key}` is not a key of {'.'.join(map(str, at[2:])) or 'an example'}{hint}"
        findings.append(problem_rule.at(document.key_at(*at, key), problem=said))
    if len(unknown) > MAX_UNKNOWN_KEYS:
        more = f"example {name}: {len(unknown) - MAX_UNKNOWN_KEYS} more unknown keys are not listed"
        findings.append(problem_rule.at(document.at(*at), problem=more))
    return findings


def _input_findings(tool: Tool, document: YamlDocument, index: int, example: Example) -> Iterator[Finding]:
    """Inputs that name no parameter, and required parameters without a value or a default."""
    declared = {p.name: p for p in tool.parameters if p.name}
    candidates = list(declared)[:MAX_SUGGESTED_FROM]
    for part, keys in (("inputs", example.inputs), ("files", example.files)):
        for key in keys:
            if key in declared:
                continue
            close = closest(key, candidates)
            suggestion = f"Did you mean `{close}`?" if close else _parameters_hint(declared)
            where = document.key_at("examples", index, part, key)
            yield UNKNOWN_INPUT.at(where, example=example.name, key=key, part=part, suggestion=suggestion)
    for name, parameter in declared.items():
        valued = name in example.inputs or name in example.files
        if parameter.required and parameter.default is None and not valued:
            part = "files" if parameter.type in FILE_TYPES else "inputs"
            where = document.key_at("examples", index, "name")
            yield MISSING_INPUT.at(where, example=example.name, key=name, part=part)


def closest(key: Any, choices: Sequence[str]) -> str | None:
    """The choice a misspelt key most likely meant, if any is close."""
    close = difflib.get_close_matches(str(key), choices, n=1)
    return close[0] if close else None


def _parameters_hint(declared: dict[str, Parameter]) -> str:
    if not declared:
        return "The tool declares no parameters: leave `inputs` and `files` empty."
    names = ", ".join(f"`{n}`" for n in list(declared)[:20]) + (", …" if len(declared) > 20 else "")
    return f"Use one of the tool's parameters: {names}."


def _files(
    loaded: LoadedPlugin, document: YamlDocument, index: int, spec: dict[str, Any], findings: list[Finding]
) -> dict[str, tuple[InputFile, ...] | InputFile] | None:
    result: dict[str, tuple[InputFile, ...] | InputFile] = {}
    for parameter, value in spec.items():
        entries = value if isinstance(value, list) else [value]
        read: list[InputFile] = []
        for number, item in enumerate(entries):
            parts: tuple[str | int, ...] = ("examples", index, "files", parameter)
            parts += (number,) if isinstance(value, list) else ()
            loaded_file = _input_file(loaded, item)
            if isinstance(loaded_file, str):
                findings.append(BAD_EXAMPLES.at(document.at(*parts), problem=loaded_file))
                return None
            read.append(loaded_file)
        result[str(parameter)] = tuple(read) if isinstance(value, list) else read[0]
    return result


def _input_file(loaded: LoadedPlugin, item: Any) -> InputFile | str:
    if not isinstance(item, dict) or not isinstance(item.get("path"), str):
        return "an input file needs `path` (and `mime_type`)"
    resolved = loaded.reader.resolve(item["path"])
    if resolved.path is None:
        return f"input file {item['path']!r} is not inside the plugin: {resolved.problem}"
    size = loaded.reader.size(resolved.relative) if loaded.reader.is_file(resolved.relative) else None
    if size is None:
        return f"input file {item['path']!r} does not exist"
    if size > MAX_INPUT_FILE:
        return f"input file {item['path']!r} is larger than {MAX_INPUT_FILE} bytes"
    data = loaded.reader.head(resolved.relative, MAX_INPUT_FILE)
    if data is None:
        why = loaded.reader.why_unreadable(resolved.relative)
        return f"input file {item['path']!r} cannot be read: {why}"
    mime_type = item.get("mime_type")
    if not isinstance(mime_type, str):
        mime_type = "application/octet-stream"
    return InputFile(Path(resolved.relative).name, mime_type, data)
