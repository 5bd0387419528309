"""The runner's data: options in, frozen results out (the contract other stages read)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from generator.findings import Finding
from generator.plugin_model import I18n, ToolKey
from generator.published import SITE_URL
from generator.run.result import RunResult
from generator.run.shard import Shard

if TYPE_CHECKING:
    from generator.kind_models.trigger import EventKey

DEFAULT_CACHE = Path(".dify-registry-cache")
# The SDK release the registry's own plugins are written against; used when a plugin names no
# requirements at all.
DEFAULT_REQUIREMENTS = ("dify_plugin==0.10.2",)
# The address a run's files have while it runs and in the cache (a reserved `.invalid` name that
# never resolves). A run's result cannot depend on where a site is published, so runs are made and
# keyed with this address, and the site's own URL replaces it only when a run is shown
# (`runner.run_plugins`): shards run with any site URL merge into one cache that every site reuses.
RUN_SITE_URL = "https://files.dify-registry.invalid/"


@dataclass(frozen=True, slots=True)
class Limits:
    """What one run of one example may use before it is stopped."""

    timeout: float = 30.0
    cpu_seconds: int = 30
    memory_bytes: int = 2 * 1024**3
    max_messages: int = 10_000
    max_output_bytes: int = 64 * 1024**2
    max_processes: int = 64
    max_file_bytes: int = 64 * 1024**2
    max_captured: int = 64 * 1024


@dataclass(frozen=True, slots=True)
class RunOptions:
    """How to run: where the cache lives, limits, parallelism, which tools and examples."""

    cache_dir: Path = DEFAULT_CACHE
    # Where the site serves the runs' files: it names them in the runs shown, never in what is run
    # or cached (RUN_SITE_URL).
    site_url: str = SITE_URL
    limits: Limits = field(default_factory=Limits)
    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)
    use_cache: bool = True
    tool: str | None = None
    example: str | None = None
    progress: bool = False
    # None: isolate as far as the machine allows; False: only rlimits and the in-process guards.
    isolate: bool | None = None
    offline: bool = False
    # Run the chosen examples with network access and write their recordings (run --record).
    record: bool = False
    # Run only the tools of this shard's plugins (`--shard I/N`, generator/run/shard.py).
    shard: Shard | None = None


@dataclass(frozen=True, slots=True)
class OutputFile:
    """A file a tool produced (blob message or upload), stored in the run cache."""

    filename: str
    mime_type: str
    size: int
    sha256: str
    path: Path
    site_path: str


@dataclass(frozen=True, slots=True)
class RunMessage:
    """One message the tool yielded: its type and JSON payload (blob bytes replaced by a file
    reference `{"file": index}` into `ExampleRun.files`)."""

    type: str
    payload: Any
    meta: Any = None
    # The SDK payload class the tool attached (TextMessage, JsonMessage, ...); "" when unknown.
    kind: str = ""


@dataclass(frozen=True, slots=True)
class Replay:
    """How a run used a recording: when it was made (a date), and the requests (method and URL)
    answered from it, or made while recording it."""

    recorded_at: str
    requests: tuple[str, ...]
    recorded: bool = False


@dataclass(frozen=True, slots=True)
class ExampleRun:
    """One run of one tool on one example (or a smoke run on placeholder inputs)."""

    tool: ToolKey
    # `LoadedPlugin.display` of the plugin that ran: its identity in the catalog (two plugins of a
    # collection may share a manifest name, and so tool keys). Not cached: a cached run is the same
    # whichever way its plugin is named.
    plugin: str
    example: str
    smoke: bool
    inputs: MappingProxyType[str, Any]
    messages: tuple[RunMessage, ...]
    outputs: MappingProxyType[str, Any]
    files: tuple[OutputFile, ...]
    findings: tuple[Finding, ...]
    # What the run shows (`result.py`), and what names it: a credential, hosts, the tool's message.
    result: RunResult
    duration: float
    python: str
    stdout: str = ""
    stderr: str = ""
    cached: bool = False
    # What the example shows, as its examples file says it (none for smoke runs).
    description: I18n = field(default_factory=I18n)
    replay: Replay | None = None
    # Hosts the tool tried to reach (names looked up, addresses connected to), in order.
    contacted: tuple[str, ...] = ()
    detail: str = ""
    # The files the run gave the tool, each as "parameter: file name (MIME type, size)".
    input_files: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        """True only for an example whose expectations were met (never for a smoke run)."""
        return self.result is RunResult.PASSED


@dataclass(frozen=True, slots=True)
class Request:
    """A webhook delivery as an event run shows it: the body's first bytes as text, and its size."""

    method: str
    target: str
    headers: tuple[tuple[str, str], ...]
    body: str
    body_size: int
    body_file: str = ""


@dataclass(frozen=True, slots=True)
class EventRun:
    """One run of a trigger event's example: a delivery through the provider's `_dispatch_event`
    and, when the dispatch names the event, its `_on_event`."""

    event: EventKey
    plugin: str  # `LoadedPlugin.display`, as for `ExampleRun.plugin`
    example: str
    request: Request
    properties: MappingProxyType[str, Any]
    parameters: MappingProxyType[str, Any]
    # the event names the dispatch returned, in its order (empty when it did not finish)
    dispatched: tuple[str, ...]
    # what `_on_event` returned (`Variables.variables`, as the SDK sends it to Dify)
    variables: MappingProxyType[str, Any]
    findings: tuple[Finding, ...]
    result: RunResult
    duration: float
    python: str
    stdout: str = ""
    stderr: str = ""
    cached: bool = False
    description: I18n = field(default_factory=I18n)
    detail: str = ""

    @property
    def reached(self) -> bool:
        """True when the dispatch named this example's event, so that its `_on_event` ran."""
        return self.event.event in self.dispatched


@dataclass(frozen=True, slots=True)
class RunReport:
    """Every run, and every finding of the run stage (each run's, and those of no single run:
    environments, examples files, recordings) by the plugin it belongs to."""

    runs: tuple[ExampleRun, ...]
    # `LoadedPlugin.display` of the plugin the stage was given -> its findings, sorted: the plugin
    # is named, never guessed from a finding's path (a registry's overlay files lie elsewhere).
    findings: Mapping[str, tuple[Finding, ...]]
    # every run of a trigger event's example (their findings are in `findings` too)
    event_runs: tuple[EventRun, ...] = ()
    # `LoadedPlugin.display` -> the Python of the plugin's environment, where one exists: what it
    # installs is what Dify's daemon installs, read by the checks that could only guess it
    environments: Mapping[str, Path] = field(default_factory=lambda: MappingProxyType({}))
