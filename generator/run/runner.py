"""`run_plugins`: plan one job per tool example, run them (cached, in parallel), check the results."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from generator.findings import Finding, Location, Severity, sort_findings
from generator.load.crawl import LoadedPlugin
from generator.load.examples import SMOKE_RUN, Example, InputFile, examples_path, load_examples
from generator.load.recordings import Recording, load_recording
from generator.load.values import dig
from generator.plugin_model import Tool, ToolKey
from generator.progress import Stage
from generator.rules import Phrase, rule
from generator.run import cache, wire
from generator.run.assemble import assemble
from generator.run.build_failure import Missing, missing_library, out_of_space, summary
from generator.run.code_variables import code_variables
from generator.run.environment import Environment, build_environment, describe_environment
from generator.run.event_runs import EventJob, event_jobs, execute_event, plan_events, run_places
from generator.run.indexes import SOURCE_UNREACHABLE, no_answer
from generator.run.invented import required_only_example, smoke_example
from generator.run.outcome import read_outcome
from generator.run.overlay import ensure_overlay
from generator.run.own_code import run_code_digest
from generator.run.own_failure import raise_if_own
from generator.run.pool import run_parallel
from generator.run.replay import (
    NO_RECORDER,
    hide_in,
    http_job,
    recorded_interactions,
    replay_findings,
    replay_of,
    run_credentials,
    secrets,
    write_recording,
)
from generator.run.result import in_words
from generator.run.returned import check_run
from generator.run.runtypes import RUN_SITE_URL, EventRun, ExampleRun, RunOptions, RunReport
from generator.run.sandbox import Isolation, detect_isolation
from generator.run.shard import in_shard
from generator.run.verdict import (
    never_set,
    nothing_ran,
    one_per_place,
    reached_invoke,
    run_result,
    weigh,
)
from generator.run.worker import Access, Workers
from generator.schemas import SchemaSet

BROKEN_ENVIRONMENT = rule(
    "R009",
    "environment-failed",
    Severity.ERROR,
    "the plugin's environment could not be built: {problem}",
    "Check requirements.txt (or pyproject.toml with uv.lock): every package must exist for Python "
    "{python} and build; where the runner cannot isolate a build, only wheels are installed.",
    """
Each plugin runs in an environment built with uv from its own requirements, in the plugin's folder
as Dify installs them. Source distributions are built as Dify builds them, but in the runner's build
sandbox (an unprivileged uid, private folders, no variables of the caller, resource limits); where
the runner cannot isolate (not root, or no util-linux `unshare`) only wheels are installed, since
building runs the package's own code. A requirement that does not exist, does not support the
Python version or fails to build (or, without isolation, has no wheel) fails the build, and the
plugin's examples are not run. The finding shows uv's failure with the package it names, and the
line that names the cause, which uv prints last, after the build's own output: its last specific
hint (a `requires-python` wider than a dependency supports), else the error the build printed, else
its first cause. A build that fails for want of a system library is R042, a warning. A build that
fails because the registry's own build helper is broken (its output is a traceback through the
registry's files, and the helper does not import in a fresh interpreter either) is not the
plugin's: the command stops with exit code 3 and says so.
""",
)
LIBRARY_MISSING = rule(
    "R042",
    "build-needs-system-library",
    Severity.WARNING,
    "the plugin's environment could not be built: building {package!s} from source needs the system "
    "library `{library}`, which this machine does not have ({daemon!s}); no tool of the plugin was run",
    "{advice!s}",
    """
A dependency without a wheel for the machine is built from source, as Dify's install builds it, and
some builds compile against a system library: they look for it with pkg-config, meson or a
`*-config` program, or include its C headers (`pycairo` needs `cairo`, `psycopg2` needs
`pg_config`). When the library is not installed, the build fails with the build tool's own words
("Dependency "cairo" not found", "Package cairo was not found in the pkg-config search path",
"fatal error: cairo.h: No such file or directory"). That says what this machine lacks, not what is
wrong with the plugin: the finding names the library and is a warning, not the error R009. It says
whether Dify's plugin daemon image has the library: its `docker/local.dockerfile` installs
`python3.12-dev ffmpeg build-essential git cmake pkg-config libcairo2-dev libjpeg-dev libgif-dev`,
so `cairo`, `libjpeg` and `gif` builds work there, and a plugin that needs another library needs a
daemon whose operator installed it.
""",
)
PYTHON_SUBSTITUTED = rule(
    "R032",
    "python-substituted",
    Severity.INFO,
    "meta.runner.version asks for Python {requested}; Dify runs every plugin with its own one Python, "
    "and the runner ran it with Python {used}",
    "Set meta.runner.version to {used}, the Python Dify's plugin daemon runs plugins with.",
    """
Dify's plugin daemon does not read `meta.runner.version`: it creates every plugin's environment
with the one Python it is configured with (its images install Python 3.12, and it runs
`uv venv .venv --python 3.12`). The runner does the same, so a plugin that names another version
is run as Dify runs it, and this note says so.
""",
)

# The findings of the run stage by the plugin they belong to (`LoadedPlugin.display`).
Found = dict[str, list[Finding]]
# Findings kept back by (plugin, tool) until the tool's runs show whether they hold.
Notes = dict[tuple[str, ToolKey], list[Finding]]


@dataclass(frozen=True, slots=True)
class Job:
    """One example of one tool, ready to run."""

    loaded: LoadedPlugin
    tool: Tool
    example: Example
    environment: Environment
    key: str
    credentials: tuple[str, ...] = ()
    # the provider's credentials of type secret-input: replaced by markers in recordings
    secret_credentials: tuple[str, ...] = ()
    # "record" or "replay" with the recorder's packages, or "" for a plain offline run
    http: str = ""
    overlay: Path | None = None
    recording: Recording | None = None


def _where(loaded: LoadedPlugin, tool: Tool, example: Example) -> Location:
    return example.origin if not example.smoke else tool.origin


def _schema_where(loaded: LoadedPlugin, tool: Tool) -> Location:
    document = loaded.documents.get(tool.file)
    return document.at("output_schema") if document is not None else tool.origin


def _task_files(files: MappingProxyType[str, tuple[InputFile, ...] | InputFile]) -> dict[str, Any]:
    def sent(item: InputFile) -> wire.File:
        return wire.File(filename=item.filename, mime_type=item.mime_type, data=item.data)

    return {
        name: [sent(i) for i in value] if isinstance(value, tuple) else sent(value)
        for name, value in files.items()
    }


def site_prefix(tool: Tool, example: str) -> str:
    """`files/<plugin>/<provider>/<tool>/<example>/`: where the site serves the run's files."""
    key = tool.key
    return f"files/{key.plugin}/{key.provider}/{key.tool}/{example}/"


def _execute(
    job: Job, slot: int, options: RunOptions, workers: Workers, schemas: SchemaSet | None
) -> ExampleRun:
    tool, example = job.tool, job.example
    prefix = site_prefix(tool, example.name)
    credentials = run_credentials(example, job.http == "record", os.environ)
    hidden = secrets(example, credentials, job.secret_credentials)
    task = wire.Task(
        source=tool.source,
        inputs=dict(example.inputs),
        credentials=credentials,
        files=_task_files(example.files),
        upload_base=RUN_SITE_URL + prefix,
        http=http_job(job.http, job.overlay, hidden, job.recording) if job.http and job.overlay else None,
    )
    where = _where(job.loaded, tool, example)
    result = workers.run(slot, job.environment.python, job.loaded.root.resolve(), task)
    folder = cache.run_folder(options.cache_dir, job.key) / "files"
    outcome = read_outcome(result, where, job.loaded.display, options.limits, folder, prefix)
    findings = list(outcome.findings)
    if job.recording is not None and job.http == "replay":
        findings.extend(
            replay_findings(outcome.evidence.unmatched, job.recording, example, tool, job.loaded, where)
        )
    if job.http == "record":
        interactions = recorded_interactions(result.events)
        if interactions is not None:
            write_recording(job.loaded, tool, example, interactions, hidden)
    outputs: dict[str, Any] = {}
    remarks: tuple[Finding, ...] = ()
    if outcome.finished:
        assembly = assemble(outcome.messages, where, outcome.files, RUN_SITE_URL)
        findings.extend(assembly.findings)
        outputs = assembly.outputs
        checked = check_run(
            tool,
            example.name,
            outputs,
            outcome.messages,
            example.expect,
            schemas,
            where,
            _schema_where(job.loaded, tool),
        )
        findings.extend(checked.findings)
        remarks = checked.remarks
    findings = weigh(
        findings,
        outcome.evidence,
        example,
        tool,
        job.credentials,
        job.loaded.display_path(examples_path(tool)),
        str(job.environment.python.parent.parent),
        outcome.messages,
        remarks,
        options.limits.memory_bytes,
    )
    ordered = sort_findings(findings)
    shows, detail = run_result(
        ordered, outcome.evidence, example, tool, job.credentials, outcome.messages, outcome.finished
    )
    run = ExampleRun(
        tool=tool.key,
        plugin=job.loaded.display,
        example=example.name,
        smoke=example.smoke,
        inputs=MappingProxyType(dict(example.inputs)),
        messages=outcome.messages,
        outputs=MappingProxyType(outputs),
        files=outcome.files,
        findings=tuple(ordered),
        result=shows,
        duration=result.duration,
        python=outcome.evidence.python or job.environment.interpreter.name,
        stdout=result.stdout.decode("utf-8", errors="replace"),
        stderr=result.stderr.decode("utf-8", errors="replace"),
        description=example.description,
        replay=replay_of(result.events, job.recording, job.http == "record") if job.http else None,
        contacted=outcome.evidence.hosts,
        detail=detail,
        input_files=_shown_files(example.files),
    )
    return _hidden(run, hidden) if job.http == "record" else run


def _shown_files(files: MappingProxyType[str, tuple[InputFile, ...] | InputFile]) -> tuple[str, ...]:
    """The input files of a run as the outputs show them: parameter, file name, type and size."""
    return tuple(
        f"{name}: {item.filename} ({item.mime_type}, {len(item.data)} bytes)"
        for name, value in files.items()
        for item in (value if isinstance(value, tuple) else (value,))
    )


def _hidden(run: ExampleRun, hidden: dict[str, str]) -> ExampleRun:
    """A recording run's result with the credential values replaced, as in its recording."""
    return _rewritten(run, lambda value: hide_in(value, hidden))


def _placeless(run: ExampleRun, job: Job, options: RunOptions) -> ExampleRun:
    """The run without this machine's paths (a traceback's frames, a message naming a file): what
    is cached moves between machines (`--shard`, `cache merge`), and a site never shows them."""
    places = run_places(job.loaded, job.environment, options)
    return _rewritten(run, lambda value: cache.each_text(value, places.rewrite))


def _published(run: ExampleRun, site_url: str) -> ExampleRun:
    """The run as the site at `site_url` shows it: its files at their address there."""
    if site_url == RUN_SITE_URL:
        return run

    def moved(text: str) -> str:
        return text.replace(RUN_SITE_URL, site_url)

    return _rewritten(run, lambda value: cache.each_text(value, moved))


def _rewritten(run: ExampleRun, change: Callable[[Any], Any]) -> ExampleRun:
    """The run with `change` applied to every value a tool or the runner wrote into it."""
    return replace(
        run,
        inputs=MappingProxyType(change(dict(run.inputs))),
        messages=tuple(replace(m, payload=change(m.payload), meta=change(m.meta)) for m in run.messages),
        outputs=MappingProxyType(change(dict(run.outputs))),
        findings=tuple(replace(d, message=change(d.message), hint=change(d.hint)) for d in run.findings),
        stdout=change(run.stdout),
        stderr=change(run.stderr),
        detail=change(run.detail),
    )


def _schemas_digest(schemas: SchemaSet | None) -> str:
    digest = hashlib.sha256()
    for hosted in schemas.hosted if schemas is not None else ():
        digest.update(hosted.content)
    return digest.hexdigest()


def plan(
    plugins: Sequence[LoadedPlugin], options: RunOptions, isolation: Isolation, schemas: SchemaSet | None
) -> tuple[list[Job], list[EventJob], Found, Notes, dict[str, Path]]:
    """Every job to run (tools' examples, trigger events' deliveries), plus findings met while
    planning (environments, examples, recordings), by plugin, the smoke-run notes (R031) by
    tool, which say that a tool ran (`run_plugins` adds each one once the run shows that the tool's
    code did run), and the environments built for plugins none of whose tools can run."""
    jobs: list[Job] = []
    deliveries: list[EventJob] = []
    found: Found = {}
    notes: Notes = {}
    masked: dict[str, Path] = {}
    common = [
        run_code_digest(),
        isolation.description,
        repr(options.limits),
        _schemas_digest(schemas),
    ]
    chosen_tools = [_tools_to_run(loaded, options) for loaded in plugins]
    chosen_events = [plan_events(loaded, options) for loaded in plugins]
    needed = [
        bool(tools or events.examples) for tools, events in zip(chosen_tools, chosen_events, strict=True)
    ]
    built = Stage.shown_if(options.progress, "environments", sum(needed))
    for loaded, tools, events in zip(plugins, chosen_tools, chosen_events, strict=True):
        findings = found.setdefault(loaded.display, [])
        findings.extend(events.findings)
        plugin = loaded.plugin
        if plugin is None or not (tools or events.examples):
            findings.extend(_none_runs(loaded, options, isolation, masked))
            continue
        built.advance(loaded.display)
        environment = _described(loaded, plugin.runner_version, options, isolation)
        manifest_where = loaded.documents["manifest.yaml"].at("meta", "runner", "version")
        findings.extend([*environment.warnings, *_environment_findings(environment, manifest_where)])
        if not environment.built:
            continue
        if environment.substituted:
            findings.append(
                PYTHON_SUBSTITUTED.at(
                    manifest_where, requested=environment.requested, used=environment.interpreter.name
                )
            )
        digest = cache.folder_digest(loaded.reader)
        chosen = {t.key for t in tools}
        planned: list[Job] = []
        for provider in plugin.providers:
            credentials = tuple(c.name for c in provider.credentials)
            secret = tuple(c.name for c in provider.credentials if c.type == "secret-input")
            for tool in (t for t in provider.reachable_tools if t.key in chosen):
                examples, problems = load_examples(loaded, tool, smoke=smoke_example)
                findings.extend(p for p in problems if p.rule != SMOKE_RUN.code)
                notes[loaded.display, tool.key] = [p for p in problems if p.rule == SMOKE_RUN.code]
                for example in _with_required_only(tool, examples, options.example):
                    ingredients = [digest, str(tool.key), example.name, repr(example.raw)]
                    key = cache.run_key([*common, *ingredients, environment.portable_key])
                    planned.append(Job(loaded, tool, example, environment, key, credentials, secret))
        delivered = event_jobs(loaded, events, environment, common, digest)
        # A plugin whose every run is cached needs no environment (a build from a complete cache
        # runs nothing); otherwise it is built now, once for all its jobs.
        complete = (
            options.use_cache
            and not options.record
            and all(_cached(job, options) for job in planned)
            and all(_cached_event(job, options) for job in delivered)
        )
        if not complete:
            built.show(f"{loaded.display}: building its environment")
            environment = build_environment(environment, loaded.display_path)
            findings.extend(_environment_findings(environment, manifest_where))
            if not environment.built:
                continue
        for job in planned:
            recorded, problems = _recorded(replace(job, environment=environment), options, not complete)
            findings.extend(problems)
            jobs.append(recorded)
        deliveries.extend(replace(job, environment=environment) for job in delivered)
    built.close()
    return jobs, deliveries, found, notes, masked


def _none_runs(
    loaded: LoadedPlugin, options: RunOptions, isolation: Isolation, masked: dict[str, Path]
) -> list[Finding]:
    """Why no tool of the plugin runs and, when it is meant to run tools, what its environment
    says (`_masked`)."""
    stopped = nothing_ran(loaded) if options.tool is None else []
    return [*stopped, *_masked(loaded, options, isolation, masked)] if stopped else []


def _masked(
    loaded: LoadedPlugin, options: RunOptions, isolation: Isolation, masked: dict[str, Path]
) -> list[Finding]:
    """For a plugin none of whose tools can run (it does not load, or its tools name no code):
    its environment, built all the same, and what building it found; the environment goes into
    `masked` (by plugin), for the checks that read a built environment (the installed libraries'
    signatures), so that an author who mends what stops the plugin does not meet those next."""
    if not any(file.relative.endswith(".py") for file in loaded.reader.tree.files):
        return []
    manifest = loaded.documents.get("manifest.yaml")
    requested = dig(manifest.data if manifest is not None else None, "meta", "runner", "version")
    environment = _described(
        loaded, str(requested) if isinstance(requested, str | int | float) else "", options, isolation
    )
    where = Location(loaded.display_path("manifest.yaml"))
    found = [*environment.warnings, *_environment_findings(environment, where)]
    if environment.built:
        environment = build_environment(environment, loaded.display_path)
        found.extend(_environment_findings(environment, where))
    if environment.built:
        masked[loaded.display] = environment.python
    return found


def _described(
    loaded: LoadedPlugin, requested: str, options: RunOptions, isolation: Isolation
) -> Environment:
    """The environment the plugin gets, for the Python version its manifest asks for."""
    return describe_environment(
        loaded.reader,
        requested,
        options.cache_dir,
        options.offline,
        isolation,
        loaded.display_path,
        _arches(loaded),
    )


def _arches(loaded: LoadedPlugin) -> tuple[str, ...]:
    """The manifest's `meta.arch` (the machines Dify runs the plugin on)."""
    manifest = loaded.documents["manifest.yaml"].data
    meta = manifest.get("meta") if isinstance(manifest, dict) else None
    arch = meta.get("arch") if isinstance(meta, dict) else None
    return tuple(str(a) for a in arch) if isinstance(arch, list) else ()


def _tools_to_run(loaded: LoadedPlugin, options: RunOptions) -> list[Tool]:
    """The tools of a plugin that run (all, or the one `--tool` names), those with code."""
    every = loaded.plugin.tools if loaded.plugin else ()
    return [t for t in every if options.tool in (None, t.name) and t.source and loaded.loads(t)]


def _environment_findings(environment: Environment, where: Location) -> list[Finding]:
    """Why the environment cannot be used: requirements not followed, or its build failed."""
    if not environment.problem:
        return list(environment.findings)
    place = environment.where or where  # the requirement uv's error names, else the manifest
    unanswered = no_answer(environment.problem)
    if unanswered:  # this machine's network, not the plugin: Dify's daemon may reach the source
        return [*environment.findings, SOURCE_UNREACHABLE.at(place, why=unanswered)]
    full = out_of_space(environment.problem)
    if full:  # this machine's disk, not the plugin
        return [*environment.findings, OUT_OF_SPACE.at(place, words=full)]
    raise_if_own(environment.problem)  # the registry's own broken build helper is not the plugin's R009
    missing = missing_library(environment.problem)
    if missing is not None:  # this machine's system libraries, not the plugin
        return [*environment.findings, _library_missing(missing, place)]
    python = environment.interpreter.name
    problem = Phrase(summary(environment.problem))
    return [*environment.findings, BROKEN_ENVIRONMENT.at(place, problem=problem, python=python)]


OUT_OF_SPACE = rule(
    "R132",
    "build-out-of-space",
    Severity.WARNING,
    "the plugin's environment could not be built here: this machine's disk was full ({words}); that says"
    " nothing about the plugin, whose runs did not happen",
    "Free disk space where the registry builds environments (the cache folder, `--cache-dir`) and run again.",
    """
A build that stops because the disk is full (uv's `No space left on device (os error 28)` while it
downloads or unpacks a wheel) fails on this machine only: the same requirements build where there is
room, as Dify's daemon builds them on its own disk. It is told as this warning, at the plugin's
dependency file, instead of `R009` (an error of the plugin), and no tool of the plugin runs. Large
environments (torch with its CUDA libraries is several GB) are the usual cause.
""",
)
# Libraries Dify's plugin daemon image installs with their development files (dify-plugin-daemon's
# docker/local.dockerfile: `libcairo2-dev libjpeg-dev libgif-dev`), by the names builds look them up.
DAEMON_LIBRARIES = frozenset({"cairo", "cairo.h", "libjpeg", "jpeglib.h", "gif", "gif_lib.h"})


def _library_missing(missing: Missing, place: Location) -> Finding:
    """R042 for a source build that did not find a system library, saying whether Dify has it."""
    package = f"`{missing.package}`" if missing.package else "a dependency"
    if missing.library in DAEMON_LIBRARIES:
        daemon = "Dify's plugin daemon image installs it"
        advice = (
            f"Nothing to fix for Dify, whose plugin daemon image installs `{missing.library}`; to run the "
            "plugin here, install it with its development files (Debian: its `-dev` package) where the "
            "registry builds environments."
        )
    else:
        daemon = "nor does Dify's plugin daemon image"
        advice = (
            f"Require a version of {package} that ships a wheel, or say in the README that the daemon needs "
            f"`{missing.library}` installed (Dify's image does not have it); to run the plugin here, install "
            "it with its development files where the registry builds environments."
        )
    return LIBRARY_MISSING.at(
        place, package=Phrase(package), library=missing.library, daemon=Phrase(daemon), advice=Phrase(advice)
    )


def _cached(job: Job, options: RunOptions) -> bool:
    return cache.load(options.cache_dir, job.key, job.loaded.display) is not None


def _cached_event(job: EventJob, options: RunOptions) -> bool:
    return cache.load_event(options.cache_dir, job.key, job.loaded.display) is not None


def _recorded(job: Job, options: RunOptions, runs: bool = True) -> tuple[Job, list[Finding]]:
    """The job with its recording (replay), or set to record; unchanged for an offline run. A job
    that will not run (`runs` false: its result is cached) gets no recorder."""
    example = job.example
    if example.smoke or example.required_only:
        # invented inputs, or only the required ones: the recorded requests were not made for them
        return job, []
    recording, findings = (None, []) if options.record else load_recording(job.loaded, job.tool, example.name)
    if not options.record and recording is None:
        return job, findings
    if not runs:
        return replace(job, http="replay", recording=recording), findings
    overlay, problem = ensure_overlay(
        job.environment.python, job.environment.interpreter.name, options.cache_dir, options.offline
    )
    if overlay is None:
        where = _where(job.loaded, job.tool, example)
        return job, [*findings, NO_RECORDER.at(where, example=example.name, problem=problem)]
    mode = "record" if options.record else "replay"
    return replace(job, http=mode, overlay=overlay, recording=recording), findings


def _with_required_only(tool: Tool, examples: Sequence[Example], chosen: str | None) -> list[Example]:
    """The examples to run (all, or the one chosen), plus the run with only the required
    parameters, made from the first example."""
    picked = [e for e in examples if chosen in (None, e.name)]
    extra = required_only_example(tool, examples[0]) if examples and chosen is None else None
    return [*picked, extra] if extra is not None else picked


def _batch(job: Job) -> tuple[str, str]:
    """Examples that can share a worker: same plugin, same environment."""
    return str(job.loaded.root), job.environment.key


def _describe(job: Job, run: ExampleRun) -> str:
    return f"{job.tool.key} {job.example.name}: {in_words(run.result, run.detail)} ({run.duration:.1f} s)"


def run_plugins(
    plugins: Sequence[LoadedPlugin], options: RunOptions, schemas: SchemaSet | None = None
) -> RunReport:
    """Run every example of every tool of `plugins` and check what came back."""
    # Children run in their own working folders: a relative cache path would not reach them.
    options = replace(options, cache_dir=options.cache_dir.absolute())
    isolation = detect_isolation(options.isolate)
    plugins = in_shard(plugins, options.shard)
    jobs, deliveries, found, notes, masked = plan(plugins, options, isolation, schemas)
    cached = {
        index: cache.load(options.cache_dir, job.key, job.loaded.display)
        if options.use_cache and not options.record
        else None
        for index, job in enumerate(jobs)
    }
    pending = [job for index, job in enumerate(jobs) if cached[index] is None]

    overlays = tuple(sorted({job.overlay for job in jobs if job.overlay is not None}))
    with Workers(options.limits, isolation, Access(network=options.record, visible=overlays)) as workers:

        def work(job: Job, slot: int) -> ExampleRun:
            run = _placeless(_execute(job, slot, options, workers, schemas), job, options)
            cache.save(options.cache_dir, job.key, run)
            return run

        running = Stage.shown_if(options.progress, "runs", len(pending))
        fresh = iter(run_parallel(pending, work, options.jobs, _describe, running, batch=_batch))
        running.close()
        event_runs = _run_deliveries(deliveries, options, workers, schemas)
    every = [_published(cached[index] or next(fresh), options.site_url) for index in range(len(jobs))]
    by_tool: dict[str, list[tuple[str, Finding]]] = {}
    for job, run in zip(jobs, every, strict=True):
        by_tool.setdefault(job.loaded.display, []).extend((job.tool.name, f) for f in run.findings)
        if job.example.smoke and not job.example.required_only and reached_invoke(run):
            found[job.loaded.display].extend(notes.get((job.loaded.display, job.tool.key), ()))
    for display, pairs in by_tool.items():
        found[display].extend(one_per_place(pairs))
    # The run with only the required parameters is a probe: its findings count, the run is not shown.
    runs = [run for job, run in zip(jobs, every, strict=True) if not job.example.required_only]
    for loaded in plugins:
        providers = loaded.plugin.providers if loaded.plugin else ()
        for tool in (tool for provider in providers for tool in provider.reachable_tools):
            tool_runs = [run for run in runs if run.plugin == loaded.display and run.tool == tool.key]
            found[loaded.display].extend(
                never_set(
                    tool,
                    tool_runs,
                    _schema_where(loaded, tool),
                    loaded.display_path(examples_path(tool)),
                    code_variables(loaded, tool),
                )
            )
    for delivered in event_runs:
        found[delivered.plugin].extend(delivered.findings)
    findings = {display: tuple(sort_findings(own)) for display, own in found.items()}
    environments = [(job.loaded.display, job.environment) for job in jobs]
    environments += [(job.loaded.display, job.environment) for job in deliveries]
    built = {
        display: environment.python
        for display, environment in environments
        if environment.built and environment.python.exists()
    }
    built.update(masked)
    return RunReport(tuple(runs), MappingProxyType(findings), event_runs, MappingProxyType(built))


def _run_deliveries(
    deliveries: Sequence[EventJob], options: RunOptions, workers: Workers, schemas: SchemaSet | None
) -> tuple[EventRun, ...]:
    """Every trigger event's example delivery, cached as tools' runs are, in the same workers."""
    use = options.use_cache and not options.record
    cached = [
        cache.load_event(options.cache_dir, job.key, job.loaded.display) if use else None
        for job in deliveries
    ]
    pending = [job for job, run in zip(deliveries, cached, strict=True) if run is None]

    def work(job: EventJob, slot: int) -> EventRun:
        run = execute_event(job, slot, options, workers, schemas)
        cache.save_event(options.cache_dir, job.key, run)
        return run

    def describe(job: EventJob, run: EventRun) -> str:
        return (
            f"{job.event.key} {job.example.name}: {in_words(run.result, run.detail)} ({run.duration:.1f} s)"
        )

    def batch(job: EventJob) -> tuple[str, str]:
        return str(job.loaded.root), job.environment.key

    running = Stage.shown_if(options.progress, "deliveries", len(pending))
    fresh = iter(run_parallel(pending, work, options.jobs, describe, running, batch=batch))
    running.close()
    return tuple(run or next(fresh) for run in cached)


def all_findings(report: RunReport) -> list[Finding]:
    """Every finding of the report, of every plugin, sorted and deduplicated."""
    return sort_findings(finding for own in report.findings.values() for finding in own)


__all__ = ["all_findings", "run_plugins", "site_prefix"]
