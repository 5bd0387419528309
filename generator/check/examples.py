"""Examples files beside the tool YAMLs: what `run` would refuse or flag in them, found before
anything runs, so `validate` (and pre-commit) catch a misspelt parameter without running tools."""

from __future__ import annotations

from collections.abc import Iterable

from generator.check import CheckContext
from generator.diagnostics import Diagnostic
from generator.load.crawl import LoadedPlugin
from generator.load.examples import load_examples


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Diagnostic]:
    """The findings of every tool's examples file (tools without one are not reported here)."""
    if loaded.plugin is None:
        return []
    findings: list[Diagnostic] = []
    for tool in loaded.plugin.tools:
        findings.extend(load_examples(loaded, tool)[1])
    return findings
