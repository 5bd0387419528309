"""Examples files beside the tool and trigger event YAMLs, and the recordings of tools' examples:
what `run` would refuse or flag in them, found before anything runs, so `validate` (and pre-commit)
catch a misspelt parameter, a broken recording or a delivery too large without running anything."""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.findings import Finding
from generator.load.crawl import LoadedPlugin
from generator.load.event_examples import load_event_examples, plugin_events
from generator.load.examples import load_examples
from generator.load.recordings import load_recording


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """The findings of every tool's and event's examples file (those without one are not reported
    here)."""
    if loaded.plugin is None:
        return []
    findings: list[Finding] = []
    for tool in loaded.plugin.tools:
        examples, problems = load_examples(loaded, tool)
        findings.extend(problems)
        for example in examples:
            findings.extend(load_recording(loaded, tool, example.name)[1])
    for event in plugin_events(loaded.plugin):
        findings.extend(load_event_examples(loaded, event)[1])
    return findings
