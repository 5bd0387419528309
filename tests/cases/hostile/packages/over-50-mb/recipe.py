from pathlib import Path

from tests.packages import zip_plugin


def build(plugin: Path, work: Path, port: int) -> Path:
    target = work / "big.difypkg"
    chunk = bytes(range(256)) * 4096
    with zip_plugin(plugin, target) as archive:
        for index in range(60):
            archive.writestr(f"data/part{index:02d}.bin", chunk)
    return target
