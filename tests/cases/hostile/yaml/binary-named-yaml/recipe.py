import random
from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    noise = random.Random(6).randbytes(4096)
    (plugin / "provider" / "demo.yaml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + noise)
    return plugin
