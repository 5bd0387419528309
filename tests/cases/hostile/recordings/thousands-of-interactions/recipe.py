from pathlib import Path

import recording_files as recording


def build(plugin: Path, work: Path, port: int) -> Path:
    recording.write(plugin, [recording.interaction({"text": f"answer {n}"}) for n in range(3000)])
    return plugin
