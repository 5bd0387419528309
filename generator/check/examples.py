"""Examples files beside the tool YAMLs, and the recordings of their examples: what `run` would
refuse or flag in them, found before anything runs, so `validate` (and pre-commit) catch a misspelt
parameter or a broken recording without running tools."""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.findings import Finding
from generator.load.crawl import LoadedPlugin
from generator.load.examples import load_examples
from generator.load.recordings import load_recording


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """The findings of every tool's examples file (tools without one are not reported here)."""
    if loaded.plugin is None:
        return []
    findings: list[Finding] = []
    for tool in loaded.plugin.tools:
        examples, problems = load_examples(loaded, tool)
        findings.extend(problems)
        for example in examples:
            findings.extend(load_recording(loaded, tool, example.name)[1])
    return findings
