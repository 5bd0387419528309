from pathlib import Path

import recording_files as recording


def build(plugin: Path, work: Path, port: int) -> Path:
    recording.write(plugin, [recording.interaction({"text": "x" * (5 * 1024 * 1024)})])
    return plugin
