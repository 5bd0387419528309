"""Reporters: turn findings and a summary into text, JSON, SARIF 2.1.0 or GitHub annotations.

The JSON keys and the text line format are a documented contract (README, "Output formats").
"""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import IO, TYPE_CHECKING, Any, Protocol

from generator import __version__
from generator.errors import EXIT_FINDINGS, EXIT_OK
from generator.findings import Finding, Severity, count_by_severity
from generator.published import SITE_URL
from generator.run.result import in_words
from generator.run.runtypes import EventRun
from generator.shorten import SHOWN, shorten_json

if TYPE_CHECKING:
    from generator.catalog import Catalog
    from generator.load.crawl import LoadedPlugin
    from generator.run import ExampleRun

    # What the formats that show runs show: a tool's example run, or a trigger event's delivery.
    ShownRun = ExampleRun | EventRun

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# Where the registry site publishes one page per rule (`rules/<code>/`, see generator.site.urls).
DOCS_BASE = SITE_URL + "rules/"


@dataclass(frozen=True, slots=True)
class Summary:
    """Counts printed after the findings; the `summary` object of the JSON output."""

    plugins: int
    tools: int
    errors: int
    warnings: int
    infos: int
    files: int = 0  # files checked: the plugins' YAML files, or the schema files
    # A collection's plugins of other kinds (models, triggers, ...): kind -> display paths.
    other_plugins: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, findings: Sequence[Finding], plugins: int, tools: int, files: int = 0) -> Summary:
        """Count the findings by severity."""
        counts = count_by_severity(findings)
        return cls(
            plugins=plugins,
            tools=tools,
            errors=counts[Severity.ERROR],
            warnings=counts[Severity.WARNING],
            infos=counts[Severity.INFO],
            files=files,
        )

    @classmethod
    def of_plugins(cls, findings: Sequence[Finding], plugins: Sequence[LoadedPlugin]) -> Summary:
        """Count the findings, plugins, tools and the YAML files read of loaded plugins."""
        tools = sum(len(p.plugin.tools) for p in plugins if p.plugin)
        return cls.of(findings, len(plugins), tools, sum(len(p.documents) for p in plugins))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _use_colour(stream: IO[str]) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream.isatty()


_COLOURS = {
    Severity.ERROR: "\033[1;31m",
    Severity.WARNING: "\033[1;33m",
    Severity.INFO: "\033[1;36m",
}


def text_line(finding: Finding, colour: bool = False) -> str:
    """`path:line:col: severity RULE message`, the first line of a text finding."""
    severity = finding.severity.value
    if colour:
        severity = f"{_COLOURS[finding.severity]}{severity}\033[0m"
    return f"{finding.file}:{finding.line}:{finding.column}: {severity} {finding.rule} {finding.message}"


def summary_line(summary: Summary) -> str:
    """One closing line with the counts (plugins and tools only where plugins were read)."""
    checked = [_plural(summary.files, "file")]
    if summary.plugins or summary.tools or not summary.files:
        checked = [_plural(summary.plugins, "plugin"), _plural(summary.tools, "tool"), *checked]
    counts = {
        Severity.ERROR: summary.errors,
        Severity.WARNING: summary.warnings,
        Severity.INFO: summary.infos,
    }
    return f"{', '.join(checked)}: {_counts(counts)}"


def write_text(
    findings: Sequence[Finding],
    summary: Summary,
    out: IO[str],
    runs: Sequence[ShownRun] | None = None,
    *,
    owners: Sequence[tuple[str, Sequence[Finding]]] = (),
    show_all: bool = False,
) -> None:
    """Human-readable findings, one per line plus an indented hint; each run first when given.

    With `owners` (plugin display path -> its findings, for a collection of plugins) the findings
    are grouped under each plugin's name, with a few of each rule per plugin unless `show_all`.
    Then the count of each rule and the summary line."""
    from generator.textgroups import group_findings, hidden_line, rule_statistics

    if runs is not None:
        write_runs(runs, out)
    colour = _use_colour(out)
    for group in group_findings(findings, owners, show_all or not owners):
        if group.owner:
            out.write(f"-- {group.owner}: {_counts(group.counts)}\n")
        for finding in group.shown:
            out.write(text_line(finding, colour) + "\n")
            if finding.hint:
                out.write(f"  hint: {finding.hint}\n")
        if hidden_line(group):
            out.write(hidden_line(group) + "\n")
    statistics = rule_statistics(findings)
    if statistics:
        out.write("findings by rule:\n" + "".join(f"  {line}\n" for line in statistics))
    out.write(summary_line(summary) + "\n")
    for line in others_lines(summary):
        out.write(line + "\n")


def _counts(counts: dict[Severity, int]) -> str:
    return (
        f"{_plural(counts[Severity.ERROR], 'error')}, {_plural(counts[Severity.WARNING], 'warning')}, "
        f"{counts[Severity.INFO]} info"
    )


def others_lines(summary: Summary) -> list[str]:
    """The plugins of other kinds a collection holds, by kind: named, not checked."""
    if not summary.other_plugins:
        return []
    total = sum(len(names) for names in summary.other_plugins.values())
    lines = [f"{_plural(total, 'plugin')} of other kinds, not checked (the registry catalogs tool plugins):"]
    for kind, names in sorted(summary.other_plugins.items()):
        lines.extend(
            textwrap.wrap(
                ", ".join(names),
                width=100,
                initial_indent=f"  {kind} ({len(names)}): ",
                subsequent_indent="    ",
                break_on_hyphens=False,
            )
        )
    return lines


def as_json_object(findings: Sequence[Finding], summary: Summary) -> dict[str, Any]:
    """The JSON document of `--format json`."""
    return {
        "version": 1,
        "diagnostics": [{**asdict(d), "severity": d.severity.value} for d in findings],
        "summary": asdict(summary),
    }


def write_json(
    findings: Sequence[Finding],
    summary: Summary,
    out: IO[str],
    runs: Sequence[ShownRun] | None = None,
) -> None:
    """Findings as one JSON object (documented, stable keys), with a `runs` list when runs are given."""
    document = as_json_object(findings, summary)
    if runs is not None:
        document["runs"] = [run_as_json(r) for r in runs if not isinstance(r, EventRun)]
        document["event_runs"] = [event_run_as_json(r) for r in runs if isinstance(r, EventRun)]
    # A tool's messages may hold values JSON cannot spell: they are shown by their repr.
    json.dump(document, out, indent=2, ensure_ascii=False, default=repr)
    out.write("\n")


def write_runs(runs: Sequence[ShownRun], out: IO[str]) -> None:
    """Each run: a header, its messages, its assembled outputs (a trigger event's: its delivery,
    what the dispatch named, the variables)."""
    for run in runs:
        if isinstance(run, EventRun):
            write_event_run(run, out)
            continue
        extra = " (smoke run on invented inputs)" if run.smoke else ""
        extra += ", cached" if run.cached else ""
        shows = in_words(run.result, run.detail)
        out.write(
            f"== {run.tool} {run.example}{extra}: {shows} in {run.duration:.2f} s, Python {run.python}\n"
        )
        out.write(f"  inputs     {shorten_json(dict(run.inputs), SHOWN)}\n")
        for given in run.input_files:
            out.write(f"  input file {given}\n")
        for message in run.messages:
            out.write(f"  {message.type:<10} {shorten_json(message.payload, SHOWN)}\n")
        if run.outputs:
            out.write(f"  outputs    {shorten_json(dict(run.outputs), 2000)}\n")
        for file in run.files:
            out.write(
                f"  file       {file.site_path} ({file.mime_type or 'no MIME type'}, {file.size} bytes)\n"
            )
        if run.stdout.strip():
            out.write(f"  stdout     {shorten_json(run.stdout, SHOWN)}\n")
        if run.replay is not None:
            said = (
                "recorded"
                if run.replay.recorded
                else f"replayed from a recording of {run.replay.recorded_at}"
            )
            out.write(f"  http       {said}: {len(run.replay.requests)} requests\n")
            for request in run.replay.requests[:20]:
                out.write(f"             {request}\n")


def write_event_run(run: EventRun, out: IO[str]) -> None:
    """A trigger event's run: header, the delivery, what the dispatch named, the variables."""
    cached = ", cached" if run.cached else ""
    shows = in_words(run.result, run.detail)
    out.write(f"== {run.event} {run.example}{cached}: {shows} in {run.duration:.2f} s, Python {run.python}\n")
    request = run.request
    out.write(f"  request    {request.method} {request.target} ({request.body_size} bytes)\n")
    out.write(f"  dispatched {', '.join(run.dispatched) or '(no event)'}\n")
    if run.variables:
        out.write(f"  variables  {shorten_json(dict(run.variables), 2000)}\n")
    if run.stdout.strip():
        out.write(f"  stdout     {shorten_json(run.stdout, SHOWN)}\n")


def event_run_as_json(run: EventRun) -> dict[str, Any]:
    """One trigger event's run in the `--format json` document."""
    return {
        "event": str(run.event),
        "example": run.example,
        "result": run.result.value,
        "detail": run.detail,
        "cached": run.cached,
        "duration": run.duration,
        "python": run.python,
        "request": asdict(run.request),
        "properties": dict(run.properties),
        "parameters": dict(run.parameters),
        "dispatched": list(run.dispatched),
        "variables": dict(run.variables),
    }


def run_as_json(run: ExampleRun) -> dict[str, Any]:
    """One run in the `--format json` document."""
    return {
        "tool": str(run.tool),
        "example": run.example,
        "smoke": run.smoke,
        "passed": run.passed,
        "result": run.result.value,
        "detail": run.detail,
        "input_files": list(run.input_files),
        "cached": run.cached,
        "duration": run.duration,
        "python": run.python,
        "inputs": dict(run.inputs),
        "messages": [{"type": m.type, "payload": m.payload, "meta": m.meta} for m in run.messages],
        "outputs": dict(run.outputs),
        "replay": (
            {
                "recorded_at": run.replay.recorded_at,
                "requests": list(run.replay.requests),
                "recorded": run.replay.recorded,
            }
            if run.replay
            else None
        ),
        "files": [
            {
                "filename": f.filename,
                "mime_type": f.mime_type,
                "size": f.size,
                "sha256": f.sha256,
                "site_path": f.site_path,
            }
            for f in run.files
        ],
    }


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def write_sarif(
    findings: Sequence[Finding],
    summary: Summary,
    out: IO[str],
    runs: Sequence[ShownRun] | None = None,
) -> None:
    """SARIF 2.1.0 for code-scanning services."""
    from generator.ruleset import all_rules

    rules = all_rules()
    used = sorted({d.rule for d in findings})
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "dify-registry",
                        "version": __version__,
                        "informationUri": SITE_URL,
                        "rules": [
                            {
                                "id": code,
                                "name": rules[code].name if code in rules else code,
                                "shortDescription": {"text": rules[code].message if code in rules else code},
                                "helpUri": f"{DOCS_BASE}{code.lower()}/",
                            }
                            for code in used
                        ],
                    }
                },
                "results": [_sarif_result(d) for d in findings],
            }
        ],
    }
    json.dump(document, out, indent=2, ensure_ascii=False)
    out.write("\n")


def _sarif_result(finding: Finding) -> dict[str, Any]:
    region = {"startLine": max(finding.line, 1), "startColumn": max(finding.column, 1)}
    return {
        "ruleId": finding.rule,
        "level": _SARIF_LEVEL[finding.severity],
        "message": {"text": f"{finding.message} ({finding.hint})" if finding.hint else finding.message},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": finding.file}, "region": region}}],
    }


def _github_escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def write_github(
    findings: Sequence[Finding],
    summary: Summary,
    out: IO[str],
    runs: Sequence[ShownRun] | None = None,
) -> None:
    """GitHub Actions workflow commands, one annotation per finding."""
    for d in findings:
        props = f"file={_github_escape(d.file, prop=True)},line={d.line},col={d.column},title={d.rule}"
        message = f"{d.message}. Hint: {d.hint}" if d.hint else d.message
        out.write(f"::{_GITHUB_LEVEL[d.severity]} {props}::{_github_escape(message)}\n")
    out.write(summary_line(summary) + "\n")


class Reporter(Protocol):
    """One output format. `runs` (the example runs of `run`) is shown by the formats that show runs."""

    def __call__(
        self,
        findings: Sequence[Finding],
        summary: Summary,
        out: IO[str],
        runs: Sequence[ShownRun] | None = None,
    ) -> None: ...


REPORTERS: dict[str, Reporter] = {
    "text": write_text,
    "json": write_json,
    "sarif": write_sarif,
    "github": write_github,
}


def report(
    catalog: Catalog, format: str, out: IO[str], *, runs: bool = False, show_all: bool = False
) -> None:
    """Write a catalog's findings (and its runs, when asked) in the chosen format; text output
    groups a collection's findings by plugin."""
    summary = Summary.of_plugins(catalog.findings, catalog.plugins)
    others: dict[str, list[str]] = {}
    for other in catalog.others:
        others.setdefault(other.kind, []).append(other.display)
    summary = replace(summary, other_plugins=others)
    shown_runs: tuple[ShownRun, ...] | None = (*catalog.runs, *catalog.event_runs) if runs else None
    if format != "text":
        REPORTERS[format](catalog.findings, summary, out, shown_runs)
        return
    owners = (
        [(p.display, catalog.findings_of(p)) for p in sorted(catalog.plugins, key=lambda p: p.display)]
        if len(catalog.plugins) > 1
        else []
    )
    write_text(catalog.findings, summary, out, shown_runs, owners=owners, show_all=show_all)


def exit_code(findings: Sequence[Finding], strict: bool) -> int:
    """0 clean or warnings only; 1 errors, or warnings under `--strict`."""
    counts = count_by_severity(findings)
    if counts[Severity.ERROR] or (strict and counts[Severity.WARNING]):
        return EXIT_FINDINGS
    return EXIT_OK
