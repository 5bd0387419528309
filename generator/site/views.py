"""Rows the templates show, computed from the catalog: output variables, example runs, findings."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from markupsafe import Markup

from generator.diff.changes import class_of
from generator.diff.history import History
from generator.findings import Finding
from generator.plugin_model import FIXED_OUTPUTS, I18n
from generator.ruleset import all_rules
from generator.run import ExampleRun, OutputFile
from generator.run.result import RunResult
from generator.run.runtypes import EventRun
from generator.schemas import PropertyRow, SchemaSet
from generator.site.safe import clip, safe_url
from generator.site.untrusted import pre, pretty_json, value
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
# Of a delivery's body, the characters an event page shows (the whole request is the example's own
# file; the page shows enough to recognise it).
SHOWN_BODY_CHARS = 4000


# The views a table shows by the hundred are tuples: a template unpacks a row in its loop instead
# of asking Jinja for each field (`environment.getattr`, a Python call per field and row).
class FindingView(NamedTuple):
    """A finding, its severity and rule, and the page of its rule."""

    severity: str
    rule: str
    rule_src: str | None
    finding: Finding

    @classmethod
    def of(cls, finding: Finding, rule_src: str | None) -> FindingView:
        """The view of a finding whose rule's page is `rule_src` (None: no page)."""
        return cls(finding.severity.value, finding.rule, rule_src, finding)


class OutputRow(NamedTuple):
    """One row of an output-variables (or schema properties) table."""

    path: str
    anchor: str
    type: str
    required: bool
    # A schema's description is English (schemas have no translations): the other languages' pages
    # mark it so. The fixed variables' descriptions are the site's own words, in the page's language.
    description: I18n | str
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
    """An example run as people read it; the values already as HTML (the same in every language)."""

    name: str
    description: I18n  # shown in the page's language
    result: RunResult  # what the run shows, said in the page's language (`result_<value>`)
    detail: str  # what names it: a credential, hosts, the tool's own message
    smoke: bool
    inputs: Markup  # pretty JSON, escaped for a `<pre>` block
    text: Markup  # escaped for a `<pre>` block ("" when there is none)
    json: Markup | None
    images: tuple[FileView, ...]
    downloads: tuple[FileView, ...]
    links: tuple[str, ...]
    variables: tuple[tuple[str, Markup], ...]  # name and its value's cell
    findings: tuple[FindingView, ...]
    # the date of the recording the run was replayed from ("" for a live run), and its requests
    replayed_from: str = ""
    requests: tuple[str, ...] = ()
    input_files: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EventRunView:
    """A trigger event's run on one example delivery as people read it: the request, what the
    dispatch named, the variables `_on_event` returned; the untrusted values already escaped."""

    name: str
    description: I18n
    result: RunResult  # the shared result vocabulary (`ignored` for EventIgnoreError)
    detail: str
    method: str
    target: str
    headers: tuple[tuple[str, str], ...]
    body: Markup  # the body's first SHOWN_BODY_CHARS characters, escaped for a `<pre>` block
    body_size: int  # in bytes, the whole body
    body_cut: bool  # True when `body` is only the start of it
    body_file: str
    properties: Markup  # pretty JSON for a `<pre>` block
    parameters: Markup
    dispatched: tuple[str, ...]
    variables: tuple[tuple[str, Markup], ...]  # name and its value's cell
    findings: tuple[FindingView, ...]


@dataclass(frozen=True, slots=True)
class ChangeView:
    """One interface change of a release: its class ("" for a finding that is not a change) and
    what changed (the message without the class, which the page shows in its own language)."""

    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class ReleaseView:
    """A version in a plugin's history and its interface changes from the version before."""

    version: str
    date: str
    commit: str
    first: bool
    breaking: bool
    changes: tuple[ChangeView, ...]


@cache
def _known_rules() -> frozenset[str]:
    # Every rule is defined once the check modules are imported, so the set is fixed after one look.
    return frozenset(all_rules())


def finding_views(findings: Iterable[Finding]) -> tuple[FindingView, ...]:
    """Findings with links to their rule pages (when the rule is known)."""
    known = _known_rules()
    return tuple(FindingView.of(f, rule_src(f.rule) if f.rule in known else None) for f in findings)


def release_views(history: History | None) -> tuple[ReleaseView, ...]:
    """The releases of a plugin's history, newest first (none without a history)."""
    return tuple(
        ReleaseView(
            release.version,
            release.date,
            release.commit,
            release.first,
            release.breaking,
            tuple(_change_view(change) for change in release.changes),
        )
        for release in (history.releases if history else ())
    )


def _change_view(change: Finding) -> ChangeView:
    kind = class_of(change)
    if kind is None:
        return ChangeView("", change.message)
    # The message starts with its class in English ("breaking: ..."); the page says it as a badge.
    return ChangeView(kind.value, change.message.split(": ", 1)[1])


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


def property_rows(rows: Iterable[PropertyRow], schemas: SchemaSet) -> list[OutputRow]:
    """Property rows with links to the hosted page of every `$ref`."""
    return [
        OutputRow(
            r.path, r.anchor, r.type, r.required, I18n.of(r.description), r.ref, _ref_page(r.ref, schemas)
        )
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
    produced = outputs.get("json")
    return RunView(
        name=run.example,
        description=run.description,
        result=run.result,
        detail=run.detail,
        smoke=run.smoke,
        inputs=pre(pretty_json(dict(run.inputs))),
        text=pre(text) if isinstance(text, str) else Markup(""),
        json=pre(pretty_json(produced)) if produced is not None else None,
        images=images,
        downloads=downloads,
        links=tuple(_links(run)),
        variables=tuple((str(k), value(v)) for k, v in outputs.items() if k not in FIXED_OUTPUTS),
        findings=finding_views(run.findings),
        replayed_from=run.replay.recorded_at if run.replay else "",
        requests=run.replay.requests if run.replay else (),
        input_files=run.input_files,
    )


def event_run_view(run: EventRun) -> EventRunView:
    """What an event's run on a delivery showed, sorted into what its page shows."""
    request = run.request
    body, cut = clip(request.body, SHOWN_BODY_CHARS)
    return EventRunView(
        name=run.example,
        description=run.description,
        result=run.result,
        detail=run.detail,
        method=request.method,
        target=request.target,
        headers=request.headers,
        body=pre(body),
        body_size=request.body_size,
        # the run keeps at most 64 KiB of the body, far more than SHOWN_BODY_CHARS characters
        body_cut=cut,
        body_file=request.body_file,
        properties=pre(pretty_json(dict(run.properties))),
        parameters=pre(pretty_json(dict(run.parameters))),
        dispatched=run.dispatched,
        variables=tuple((str(k), value(v)) for k, v in run.variables.items()),
        findings=finding_views(run.findings),
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
