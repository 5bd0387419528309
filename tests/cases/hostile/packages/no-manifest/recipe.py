from pathlib import Path

from tests.packages import zip_plugin


def build(plugin: Path, work: Path, port: int) -> Path:
    target = work / "headless.difypkg"
    with zip_plugin(plugin, target, skip=("manifest.yaml",)):
        pass
    return target
