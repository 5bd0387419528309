from pathlib import Path

from tests.packages import zip_plugin


def build(plugin: Path, work: Path, port: int) -> Path:
    target = work / "bomb.difypkg"
    with zip_plugin(plugin, target) as archive:
        archive.writestr("data/bomb.bin", bytes(40 * 1024 * 1024))
    return target
