"""What one child run gave: its messages as Dify decodes them, the files they brought stored in the
cache, and the findings of how it went."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.findings import Finding, Location
from generator.run.evidence import Evidence, read_evidence
from generator.run.judge import findings_block, judge
from generator.run.messages import run_message
from generator.run.runtypes import OutputFile, RunMessage
from generator.run.sandbox import ChildResult
from generator.run.stored_files import carrying, store_files
from generator.run.wire import Yielded


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one child run gave: messages, stored files, findings at their rules' severity, what its
    events show, and whether it completed."""

    messages: tuple[RunMessage, ...]
    files: tuple[OutputFile, ...]
    findings: tuple[Finding, ...]
    evidence: Evidence
    finished: bool


def read_outcome(
    result: ChildResult, where: Location, plugin_display: str, limits: Any, folder: Path, site_prefix: str
) -> Outcome:
    """Messages, stored files and findings of one child run."""
    files = store_files(result.events, folder, site_prefix)
    numbers = {index: number for number, (index, _event, _data) in enumerate(carrying(result.events))}
    messages = tuple(
        run_message(e, numbers.get(i)) for i, e in enumerate(result.events) if isinstance(e, Yielded)
    )
    evidence = read_evidence(result.events)
    findings = judge(result, evidence, where, plugin_display, limits)
    finished = evidence.done and not findings_block(findings)
    return Outcome(messages, tuple(files), tuple(findings), evidence, finished)
