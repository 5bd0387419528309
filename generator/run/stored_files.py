"""Store the bytes a run's blobs and uploads brought in the run's folder of the cache, under names
checked again here (the child is not trusted)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from generator.run.runtypes import OutputFile
from generator.run.wire import Event, Uploaded, Yielded

STORED_NAME = re.compile(r"^\d{1,6}(\.[a-z0-9]{1,8})?$")


def carrying(events: list[Event]) -> list[tuple[int, Yielded | Uploaded, bytes]]:
    """(event index, event, bytes) of the events that brought bytes (blobs and uploads), in order:
    the order numbers their files (what the child says it numbered is not trusted)."""
    return [
        (index, event, event.blob)
        for index, event in enumerate(events)
        if isinstance(event, Yielded | Uploaded) and event.blob is not None
    ]


def store_files(events: list[Event], folder: Path, site_prefix: str) -> list[OutputFile]:
    """Write blob and upload bytes to the run's folder; names are re-checked here (child untrusted)."""
    stored: list[OutputFile] = []
    for number, (_index, event, data) in enumerate(carrying(events)):
        name = event.stored
        if not STORED_NAME.match(name) or not name.startswith(f"{number}"):
            name = f"{number}.bin"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
        stored.append(
            OutputFile(
                filename=event.filename[:255],
                mime_type=event.mime_type[:255],
                size=len(data),
                sha256=hashlib.sha256(data).hexdigest(),
                path=folder / name,
                site_path=site_prefix + name,
            )
        )
    return stored
