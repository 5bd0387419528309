"""The one place the stages are assembled: load -> check -> run -> catalog.

A command configures a `Pipeline` (what to read, the schema set resolved once, which stages to run
and with what options) and reads the frozen `Catalog` it returns; it never calls a stage itself.
What a run remembers (the checks' memo) belongs to the pipeline instance, not to module globals, so
two pipelines in one process (a rebuild under `serve`, a test) share nothing but constant data.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from generator.catalog import Catalog, SiteData
from generator.check import (
    CheckContext,
    library_calls,
    lookups,
    manifest,
    missing_imports,
    optional_packages,
    provider,
    schema,
    tool,
    undeclared,
    unyielded,
    variables_in_code,
)
from generator.findings import Finding, Severity, sort_findings
from generator.inputs import Inputs, is_registry, open_inputs
from generator.load.crawl import LoadedPlugin
from generator.load.reader import SYNTAX_TREES
from generator.load.repair import told_on_repaired
from generator.progress import Stage
from generator.schemas import SchemaSet, load_schemas, shipped_schemas

if TYPE_CHECKING:
    from generator.run import ExampleRun, RunOptions
    from generator.run.runtypes import EventRun

# Static findings about what a plugin installs, made again against the environment a run built: R073
# only when the index found something to settle; R147 always, as it keeps silent wherever the index
# does not know what a listed package brings.
RECHECKED = (
    (missing_imports.NOT_INSTALLED.code, missing_imports.rechecked),
    ("", optional_packages.rechecked),
)


def resolve_schemas(paths: Sequence[Path] = (), root: Path | None = None) -> SchemaSet:
    """The schema set a pipeline checks against: the folder `root` when it exists, else the
    `schemas/` folder of the first registry among `paths`, else the generator's shipped schemas.

    Raises SchemaLoadError when the chosen folder cannot be read."""
    if root is not None:
        return load_schemas(root) if root.is_dir() else shipped_schemas()
    for path in paths:
        if is_registry(path) and (path / "schemas").is_dir():
            return load_schemas(path / "schemas")
    return shipped_schemas()


# The checks of what Dify refuses to install (the manifest, provider and tool declarations): `run`
# reports their errors too, as `validate` would, since Dify would not run such a plugin at all.
_REFUSING_CHECKS = (schema, manifest, provider, tool)


def refusals(loaded: LoadedPlugin, context: CheckContext) -> list[Finding]:
    """The errors of the checks of what Dify refuses to install."""
    return [
        finding
        for module in _REFUSING_CHECKS
        for finding in module.check(loaded, context)
        if finding.severity is Severity.ERROR
    ]


@dataclass(frozen=True)
class Pipeline:
    """What to read and which stages to run; `catalog()` runs them and freezes the result."""

    paths: tuple[Path, ...]
    schemas: SchemaSet
    # The check stage (off for `run`, which reports loading findings, its own, and the static
    # checks of what breaks every run: messages thrown away, undeclared parameters read).
    checks: bool = True
    submission: bool = False
    # The run stage: None runs no examples.
    run: RunOptions | None = None
    # What only the site shows: icons, the domain scan and the plugins' git histories.
    site: bool = False
    # The registry's examples for plugins it does not own (None: `overlays/` of the registry).
    overlays: Path | None = None
    # A progress line per plugin checked, on a terminal (`progress.progress_wanted`).
    progress: bool = False
    context: CheckContext = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # One context (and so one memo) for every plugin of this pipeline, and for no other.
        object.__setattr__(self, "context", CheckContext(submission=self.submission, schemas=self.schemas))

    @contextlib.contextmanager
    def load(self) -> Iterator[Inputs]:
        """The load stage; unpacked packages live until the block exits."""
        with open_inputs(self.paths, self.overlays) as inputs:
            yield inputs

    def check(self, loaded: LoadedPlugin) -> list[Finding]:
        """The check stage for one plugin: its loading findings and checks (without the checks, the
        static checks of the tools' code still run: they are run findings the runs themselves
        cannot show, a message lost without a trace or a KeyError that a smoke run would blame on
        its invented inputs)."""
        if self.checks:
            # Imported here: `run`, `diff` and `workflow` then do not pay for importing every check
            # module (a third of a second on a busy machine).
            from generator.check.all_checks import check_plugin

            return check_plugin(loaded, self.context)
        chosen = self.run.tool if self.run is not None else None  # `run --tool NAME`
        every = loaded.plugin.tools if loaded.plugin else ()
        tools = [tool for tool in every if chosen in (None, tool.name)]
        found = [
            *loaded.findings,
            *refusals(loaded, self.context),
            *unyielded.unyielded(loaded, tools),
            *undeclared.undeclared_reads(loaded, tools),
            *lookups.undeclared_lookups(loaded, tools),
            *variables_in_code.variables_not_in_code(loaded, tools),
        ]
        return told_on_repaired(loaded.documents.values(), found)

    def catalog_of(self, inputs: Inputs) -> Catalog:
        """Check, take the site's data, run, and freeze already-loaded inputs."""
        site = SiteData() if self.site else None
        owned: dict[str, list[Finding]] = {}
        shown = Stage.shown_if(self.progress, "plugins checked", len(inputs.plugins))
        for loaded in inputs.plugins:  # one plugin at a time, so that each lets go before the next
            owned.setdefault(loaded.display, []).extend(self.check(loaded))
            if site is not None:
                site.take(loaded)  # while the plugin's syntax trees exist
            forget_after_checks(loaded, runs_follow=self.run is not None)
            shown.advance(loaded.display)
        shown.close()
        unowned = list(inputs.findings)
        runs: tuple[ExampleRun, ...] = ()
        event_runs: tuple[EventRun, ...] = ()
        if self.run is not None:
            # Imported here: `validate` without `--run` then does not pay for importing the runner
            # (a tenth of a second of every command line).
            from generator.run import run_plugins
            from generator.run.dependencies import NO_SDK
            from generator.run.runner import BROKEN_ENVIRONMENT
            from generator.run.verdict import told_without_running

            report = run_plugins(inputs.plugins, self.run, self.schemas)
            runs, event_runs = report.runs, report.event_runs
            for loaded in inputs.plugins:
                python = report.environments.get(loaded.display)
                checked = owned.get(loaded.display, [])
                built = report.findings.get(loaded.display, ())
                if python is not None or any(f.rule == BROKEN_ENVIRONMENT.code for f in built):
                    # R056's warning guesses whether packages the registry does not know bring the
                    # SDK; the build has answered (R009 for a misspelt `dify-plugin-sdk`, R056 again
                    # if it built without the SDK, nothing if one brought it): one cause, one finding
                    checked[:] = [
                        f for f in checked if not (f.rule == NO_SDK.code and f.severity is Severity.WARNING)
                    ]
                for code, again in RECHECKED:
                    if python is not None and (not code or any(f.rule == code for f in checked)):
                        # the built environment says what the index could only guess
                        owned[loaded.display] = checked = again(loaded, checked, python)
                if python is not None:  # the installed libraries' source, read (R130, R131)
                    owned.setdefault(loaded.display, []).extend(library_calls.misfit_calls(loaded, python))
            for display, findings in report.findings.items():
                static = owned.setdefault(display, [])
                static.extend(told_without_running(findings, list(static)))
        every = [*unowned, *(finding for findings in owned.values() for finding in findings)]
        catalog = Catalog(
            plugins=inputs.plugins,
            findings=tuple(sort_findings(every)),
            plugin_findings=MappingProxyType(
                {display: tuple(sort_findings(findings)) for display, findings in owned.items()}
            ),
            schemas=self.schemas,
            runs=runs,
            event_runs=event_runs,
            others=inputs.others,
        )
        if site is not None:
            catalog = site.added_to(catalog, self.schemas)
        for loaded in inputs.plugins:
            loaded.reader.release()  # the catalog holds what every later stage reads
        return catalog

    def catalog(self, stack: contextlib.ExitStack | None = None) -> Catalog:
        """Every stage. Unpacked packages live as long as `stack`, or only during this call (the
        catalog then holds everything a site needs, but not the unpacked files)."""
        with contextlib.ExitStack() as own:
            inputs = (stack or own).enter_context(self.load())
            return self.catalog_of(inputs)


def site_catalog(
    paths: Sequence[Path],
    schemas_root: Path,
    run: RunOptions | None,
    overlays: Path | None = None,
    progress: bool = False,
) -> Catalog:
    """The catalog a site shows, of registry folders (or plugin folders) with the hosted schemas in
    `schemas_root`: every stage, and what only the site shows of the plugins' files.

    Raises SchemaLoadError when the schemas folder cannot be read."""
    pipeline = Pipeline(
        tuple(paths),
        resolve_schemas(root=schemas_root),
        run=run,
        site=True,
        overlays=overlays,
        progress=progress,
    )
    return pipeline.catalog()


def forget_after_checks(loaded: LoadedPlugin, *, runs_follow: bool) -> None:
    """Let go of what only the checks and the site's data read of a plugin."""
    # Nothing after this reads a syntax tree (the run planner and the site ask for what was derived
    # from them), and kept for every plugin they cost 30 % more time and memory at 10,000 tools.
    loaded.reader.forget(SYNTAX_TREES)
    if not runs_follow:
        # Without runs nothing reads the plugin again: what was kept of it for the checks goes now,
        # not with the catalog. Kept for every plugin until then, it made the garbage collector's
        # full passes, which grow with what is alive, cost 1.6 s more at 10,000 tools.
        loaded.reader.release()
