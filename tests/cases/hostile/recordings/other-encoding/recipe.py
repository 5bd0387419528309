from pathlib import Path

import recording_files as recording


def build(plugin: Path, work: Path, port: int) -> Path:
    claims = {"content-encoding": ["gzip"], "content-type": ["text/html; charset=shift_jis"]}
    plain = recording.interaction({"text": "<p>not gzip, not shift_jis: é ü</p>"}, claims)
    junk = recording.interaction({"base64": "H4sIAAAAAAAA//8="}, {"content-encoding": ["br"]})
    recording.write(plugin, [plain, junk])
    return plugin
