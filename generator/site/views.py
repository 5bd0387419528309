"""Rows the templates show, computed from the catalog: output variables, example runs, findings."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.diagnostics import Diagnostic
from generator.model import FIXED_OUTPUTS, Tool
from generator.rules import all_rules
from generator.run import ExampleRun, OutputFile
from generator.schemas import PropertyRow, SchemaSet, flatten_properties
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


def fixed_rows(words: Mapping[str, str]) -> list[OutputRow]:
    """The three variables every tool has."""
    return [
        OutputRow(name, name, _FIXED_TYPES[name], False, words[f"fixed_{name}"], None, None)
        for name in FIXED_OUTPUTS
    ]


_FIXED_TYPES = {"text": "string", "files": "array[file]", "json": "array[object]"}


def output_rows(tool: Tool, schemas: SchemaSet | None, words: Mapping[str, str]) -> list[OutputRow]:
    """The fixed variables plus every property of the tool's output_schema, flattened."""
    rows = fixed_rows(words)
    if not isinstance(tool.output_schema, dict) or schemas is None:
        return rows
    return rows + property_rows(flatten_properties(tool.output_schema, schemas), schemas)


def property_rows(rows: Iterable[PropertyRow], schemas: SchemaSet) -> list[OutputRow]:
    """Property rows with links to the hosted page of every `$ref`."""
    return [
        OutputRow(r.path, r.anchor, r.type, r.required, r.description, r.ref, _ref_page(r.ref, schemas))
        for r in rows
    ]


def _ref_page(ref: str | None, schemas: SchemaSet) -> str | None:
    hosted = schemas.get(ref) if ref else None
    return schema_src(hosted) if hosted is not None else None


def run_view(run: ExampleRun) -> RunView:
    """What a run produced, sorted into what a page shows."""
    outputs = dict(run.outputs)
    images, downloads = _files(run.files)
    text = outputs.get("text")
    return RunView(
        name=run.example,
        passed=run.passed,
        smoke=run.smoke,
        inputs=dict(run.inputs),
        text=text if isinstance(text, str) else "",
        json=outputs.get("json"),
        images=images,
        downloads=downloads,
        links=tuple(_links(run)),
        variables=tuple((str(k), v) for k, v in outputs.items() if k not in FIXED_OUTPUTS),
        findings=finding_views(run.diagnostics),
    )


def _files(files: Sequence[OutputFile]) -> tuple[tuple[FileView, ...], tuple[FileView, ...]]:
    images: list[FileView] = []
    downloads: list[FileView] = []
    for f in files:
        href = published_path(f.site_path)
        view = FileView(f.filename, f.mime_type, f.size, href)
        downloads.append(view)
        if f.mime_type in IMAGE_TYPES and href == f.site_path:
            images.append(view)
    return tuple(images), tuple(downloads)


def _links(run: ExampleRun) -> Iterator[str]:
    for message in run.messages:
        payload = message.payload
        if message.type == "link" and isinstance(payload, Mapping):
            url = safe_url(payload.get("text"))
            if url:
                yield url
