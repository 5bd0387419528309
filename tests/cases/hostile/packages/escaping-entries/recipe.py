from pathlib import Path

from tests.packages import zip_plugin


def build(plugin: Path, work: Path, port: int) -> Path:
    target = work / "slip.difypkg"
    with zip_plugin(plugin, target) as archive:
        for name in ("../../escaped.txt", "/tmp/hostile-absolute.txt", "C:/hostile.txt", "tools/../../up.txt"):
            archive.writestr(name, b"escaped")
    return target
