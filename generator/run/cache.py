"""Run results cached on disk by the hash of everything that can change them.

Layout under the cache folder: `runs/<key>/run.json` (the ExampleRun as JSON) and
`runs/<key>/files/<n>.<ext>` (blobs and uploads, named by their order in the run).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from generator.findings import Finding, Severity
from generator.load.reader import PluginReader
from generator.plugin_model import I18n, ToolKey
from generator.run.result import RunResult
from generator.run.runtypes import EventRun, ExampleRun, OutputFile, Replay, Request, RunMessage

MAX_HASHED_BYTES = 64 * 1024 * 1024


def folder_digest(reader: PluginReader, under: str = "") -> str:
    """A digest of the files of a plugin (or of its folder `under`) that can change a run: names
    and bytes, links by their target text; past MAX_HASHED_BYTES in all, names only."""
    return reader.digest(reader.local_files(under), MAX_HASHED_BYTES)


def run_key(parts: Iterable[Any]) -> str:
    """The cache key of one run from its ingredients (JSON-able values)."""
    text = json.dumps(list(parts), sort_keys=True, default=repr, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


PLACE_LABELS = ("<environment>", "<python>", "<cache>")
# A worker without namespaces works in a fresh temporary folder (worker.py); with them, in a fixed
# one. The tool sees its copy of the plugin in `plugin/` there.
SCRATCH = re.compile(re.escape(tempfile.gettempdir()) + r"/dify-run-[A-Za-z0-9_]+/work")


@dataclass(frozen=True, slots=True)
class Places:
    """This machine's folders a run may name, each with what a cached run says instead."""

    work: str
    labels: tuple[tuple[str, str], ...]  # longest place first (the environment lies in the cache)

    def rewrite(self, text: str) -> str:
        """`text` with every place replaced by its label."""
        text = SCRATCH.sub(self.work, text)
        for place, label in self.labels:
            text = text.replace(place, label)
        return text


def machine_places(plugin: Path, display: str, folders: Sequence[Path], work: str) -> Places:
    """The plugin's folder, and its copy in the working folder `work` the tool runs in, become
    its display path; `folders` (the environment, the interpreter's prefix, the cache) the labels
    of PLACE_LABELS; the working folder `<work>`; the home folder `~`."""
    shown = display or "."
    places = {f"{work}/plugin": shown, str(plugin): shown, f"{work}/": "<work>/"}
    places.update(zip(map(str, folders), PLACE_LABELS, strict=True))
    places.setdefault(str(Path.home()) + "/", "~/")
    ordered = sorted(((place, label) for place, label in places.items() if len(place) > 1), key=_longest)
    return Places(work, tuple(ordered))


def _longest(item: tuple[str, str]) -> int:
    return -len(item[0])


def each_text(value: Any, change: Callable[[str], str]) -> Any:
    """A JSON-like value with `change` applied to each of its texts (not to keys)."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {key: each_text(item, change) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [each_text(item, change) for item in value]
    return value


def run_folder(cache: Path, key: str) -> Path:
    """Where one run's result and files live."""
    return cache / "runs" / key


def save(cache: Path, key: str, run: ExampleRun) -> None:
    """Store a run (written to a temporary name, then renamed, so readers never see half a file)."""
    folder = run_folder(cache, key)
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "example": run.example,
        "description": dict(run.description.texts),
        "smoke": run.smoke,
        "messages": [asdict(m) for m in run.messages],
        "result": run.result.value,
        "detail": run.detail,
        "input_files": list(run.input_files),
        "duration": run.duration,
        "python": run.python,
        "stdout": run.stdout,
        "stderr": run.stderr,
        "tool": asdict(run.tool),
        "inputs": dict(run.inputs),
        "outputs": dict(run.outputs),
        "files": [{**asdict(f), "path": f.path.name} for f in run.files],
        "diagnostics": [{**asdict(d), "severity": d.severity.value} for d in run.findings],
        "replay": asdict(run.replay) if run.replay else None,
        "contacted": list(run.contacted),
    }
    temporary = folder / f"run.json.{os.getpid()}"
    temporary.write_text(json.dumps(data, default=repr), encoding="utf-8")
    temporary.replace(folder / "run.json")


def load(cache: Path, key: str, plugin: str) -> ExampleRun | None:
    """A stored run of the plugin shown as `plugin`, or None when missing, unreadable or its files
    are gone."""
    folder = run_folder(cache, key)
    try:
        data = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        files = tuple(OutputFile(**{**f, "path": folder / "files" / f["path"]}) for f in data["files"])
        if not all(f.path.is_file() for f in files):
            return None
        with contextlib.suppress(OSError):  # a read-only cache is still read
            os.utime(folder)  # its last use, for `cache prune` (cachedir.py)
        return ExampleRun(
            tool=ToolKey(**data["tool"]),
            plugin=plugin,
            example=data["example"],
            smoke=data["smoke"],
            inputs=MappingProxyType(data["inputs"]),
            messages=tuple(RunMessage(**m) for m in data["messages"]),
            outputs=MappingProxyType(data["outputs"]),
            files=files,
            findings=tuple(
                Finding(**{**d, "severity": Severity(d["severity"])}) for d in data["diagnostics"]
            ),
            result=RunResult(data["result"]),
            duration=data["duration"],
            python=data["python"],
            stdout=data["stdout"],
            stderr=data["stderr"],
            cached=True,
            description=I18n.of(data.get("description")),
            replay=_replay(data.get("replay")),
            contacted=tuple(str(host) for host in data.get("contacted", ())),
            detail=str(data.get("detail", "")),
            input_files=tuple(str(file) for file in data.get("input_files", ())),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_event(cache: Path, key: str, run: EventRun) -> None:
    """Store an event run, as `save` stores a tool's."""
    folder = run_folder(cache, key)
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "event": asdict(run.event),
        "example": run.example,
        "description": dict(run.description.texts),
        "request": asdict(run.request),
        "properties": dict(run.properties),
        "parameters": dict(run.parameters),
        "dispatched": list(run.dispatched),
        "variables": dict(run.variables),
        "result": run.result.value,
        "detail": run.detail,
        "duration": run.duration,
        "python": run.python,
        "stdout": run.stdout,
        "stderr": run.stderr,
        "diagnostics": [{**asdict(d), "severity": d.severity.value} for d in run.findings],
    }
    temporary = folder / f"run.json.{os.getpid()}"
    temporary.write_text(json.dumps(data, default=repr), encoding="utf-8")
    temporary.replace(folder / "run.json")


def load_event(cache: Path, key: str, plugin: str) -> EventRun | None:
    """A stored event run of the plugin shown as `plugin`, or None when missing or unreadable."""
    from generator.kind_models.trigger import EventKey

    folder = run_folder(cache, key)
    try:
        data = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        with contextlib.suppress(OSError):
            os.utime(folder)
        request = data["request"]
        return EventRun(
            event=EventKey(**data["event"]),
            plugin=plugin,
            example=data["example"],
            request=Request(**{**request, "headers": tuple(tuple(pair) for pair in request["headers"])}),
            properties=MappingProxyType(data["properties"]),
            parameters=MappingProxyType(data["parameters"]),
            dispatched=tuple(str(name) for name in data["dispatched"]),
            variables=MappingProxyType(data["variables"]),
            findings=tuple(
                Finding(**{**d, "severity": Severity(d["severity"])}) for d in data["diagnostics"]
            ),
            result=RunResult(data["result"]),
            duration=data["duration"],
            python=data["python"],
            stdout=data["stdout"],
            stderr=data["stderr"],
            cached=True,
            description=I18n.of(data.get("description")),
            detail=str(data.get("detail", "")),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _replay(data: Any) -> Replay | None:
    if not isinstance(data, dict):
        return None
    return Replay(str(data["recorded_at"]), tuple(map(str, data["requests"])), bool(data.get("recorded")))
