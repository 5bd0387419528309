from pathlib import Path

from tests.packages import zip_plugin


def build(plugin: Path, work: Path, port: int) -> Path:
    target = work / "cut.difypkg"
    with zip_plugin(plugin, target):
        pass
    data = target.read_bytes()
    target.write_bytes(data[: len(data) // 2])
    return target
