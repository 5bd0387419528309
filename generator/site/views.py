"""Rows the templates show, computed from the catalog: output variables, example runs, findings."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.catalog import Catalog, ExampleRunLike, OutputFileLike
from generator.diagnostics import Diagnostic
from generator.model import FIXED_OUTPUTS, Tool
from generator.rules import all_rules
from generator.site.safe import safe_url
from generator.site.urls import rule_src, schema_src

IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
# A file a tool wrote is copied under its own name only when browsers treat that name as inert;
# anything else (HTML, SVG, XML, scripts, unknown) gets a suffix that makes servers send it as a
# download, so a stranger's file never runs as a page of this site.
INERT_SUFFIXES = frozenset(
    "png jpg jpeg gif webp bmp ico pdf txt csv tsv json jsonl md mp3 wav ogg m4a mp4 webm mov "
    "zip gz tar tgz bz2 xz 7z docx xlsx pptx doc xls ppt odt ods parquet".split()
)
DOWNLOAD_SUFFIX = ".download"
MAX_REF_WALK = 10_000
_ANCHOR = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class FindingView:
    """A finding and the page of its rule."""

    finding: Diagnostic
    rule_src: str | None


@dataclass(frozen=True, slots=True)
class OutputRow:
    """One row of an output-variables (or schema properties) table."""

    path: str
    anchor: str
    type: str
    required: bool
    description: str
    ref: str | None
    ref_src: str | None


@dataclass(frozen=True, slots=True)
class FileView:
    """A file a run produced: where the site serves it and what it is."""

    filename: str
    mime_type: str
    size: int
    href: str


@dataclass(frozen=True, slots=True)
class RunView:
    """An example run as people read it."""

    name: str
    passed: bool
    smoke: bool
    inputs: Any
    text: str
    json: Any
    images: tuple[FileView, ...]
    downloads: tuple[FileView, ...]
    links: tuple[str, ...]
    variables: tuple[tuple[str, Any], ...]
    findings: tuple[FindingView, ...]


def finding_views(findings: Iterable[Diagnostic]) -> tuple[FindingView, ...]:
    """Findings with links to their rule pages (when the rule is known)."""
    known = all_rules()
    return tuple(FindingView(f, rule_src(f.rule) if f.rule in known else None) for f in findings)


def published_path(site_path: str) -> str:
    """Where the site serves a run's file (see INERT_SUFFIXES)."""
    suffix = site_path.rsplit(".", 1)[-1].lower() if "." in site_path.rsplit("/", 1)[-1] else ""
    return site_path if suffix in INERT_SUFFIXES else site_path + DOWNLOAD_SUFFIX


def anchor_of(path: str) -> str:
    """A deep-link anchor for a property path such as `result.chunks[].files`."""
    return _ANCHOR.sub("-", path.replace("[]", "-items")).strip("-") or "root"


def fixed_rows(words: Mapping[str, str]) -> list[OutputRow]:
    """The three variables every tool has."""
    return [OutputRow(name, name, _FIXED_TYPES[name], False, words[f"fixed_{name}"], None, None)
            for name in FIXED_OUTPUTS]


_FIXED_TYPES = {"text": "string", "files": "array[file]", "json": "array[object]"}


def output_rows(tool: Tool, catalog: Catalog, words: Mapping[str, str]) -> list[OutputRow]:
    """The fixed variables plus every property of the tool's output_schema, flattened."""
    rows = fixed_rows(words)
    schema = tool.output_schema
    if not isinstance(schema, dict):
        return rows
    return rows + property_rows(schema, catalog.schemas)


def property_rows(schema: Mapping[str, Any], schemas: Any) -> list[OutputRow]:
    """Flattened properties of a schema, with links to the hosted pages of `$ref`s."""
    if schemas is not None:
        from generator.schemas import flatten_properties  # type: ignore[import-not-found]

        return [
            OutputRow(r.path, r.anchor, r.type, r.required, r.description, r.ref, _ref_page(r.ref))
            for r in flatten_properties(schema, schemas)
        ]
    return list(_top_level_rows(schema))


def _top_level_rows(schema: Mapping[str, Any]) -> Iterator[OutputRow]:
    # Without the schema registry only the top level is listed; references stay unresolved.
    properties = schema.get("properties")
    required = schema.get("required")
    required_names = set(required) if isinstance(required, list) else set()
    if not isinstance(properties, dict):
        return
    for name, spec in properties.items():
        spec = spec if isinstance(spec, dict) else {}
        ref = spec.get("$ref") if isinstance(spec.get("$ref"), str) else None
        kind = spec.get("type")
        description = spec.get("description")
        yield OutputRow(
            str(name),
            anchor_of(str(name)),
            kind if isinstance(kind, str) else ("object" if ref else ""),
            name in required_names,
            description if isinstance(description, str) else "",
            ref,
            _ref_page(ref),
        )


def _ref_page(ref: str | None) -> str | None:
    return schema_src(ref.split("#", 1)[0]) if ref else None


def refs_in(schema: Any) -> set[str]:
    """Every `$ref` string in a schema (walked iteratively, bounded, so hostile nesting is cheap)."""
    found: set[str] = set()
    stack = [schema]
    seen = 0
    while stack and seen < MAX_REF_WALK:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                found.add(ref.split("#", 1)[0])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def run_view(run: ExampleRunLike) -> RunView:
    """What a run produced, sorted into what a page shows."""
    outputs = run.outputs if isinstance(run.outputs, dict) else {}
    images, downloads = _files(run.files)
    text = outputs.get("text")
    return RunView(
        name=run.example,
        passed=run.passed,
        smoke=run.smoke,
        inputs=run.inputs,
        text=text if isinstance(text, str) else "",
        json=outputs.get("json"),
        images=images,
        downloads=downloads,
        links=tuple(_links(run)),
        variables=tuple((str(k), v) for k, v in outputs.items() if k not in FIXED_OUTPUTS),
        findings=finding_views(run.diagnostics),
    )


def _files(files: Sequence[OutputFileLike]) -> tuple[tuple[FileView, ...], tuple[FileView, ...]]:
    images: list[FileView] = []
    downloads: list[FileView] = []
    for f in files:
        href = published_path(f.site_path)
        view = FileView(f.filename, f.mime_type, f.size, href)
        downloads.append(view)
        if f.mime_type in IMAGE_TYPES and href == f.site_path:
            images.append(view)
    return tuple(images), tuple(downloads)


def _links(run: ExampleRunLike) -> Iterator[str]:
    for message in getattr(run, "messages", ()):
        payload = getattr(message, "payload", None)
        if getattr(message, "type", "") == "link" and isinstance(payload, dict):
            url = safe_url(payload.get("text"))
            if url:
                yield url
