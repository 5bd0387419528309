import zipfile
from pathlib import Path


def package(plugin: Path, target: Path, skip: tuple[str, ...] = ()) -> zipfile.ZipFile:
    archive = zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED)
    for path in sorted(plugin.rglob("*")):
        name = path.relative_to(plugin).as_posix()
        if path.is_file() and name not in skip:
            archive.write(path, name)
    return archive


def build(plugin: Path, work: Path, port: int) -> Path:
    target = work / "big.difypkg"
    chunk = bytes(range(256)) * 4096
    with package(plugin, target) as archive:
        for index in range(60):
            archive.writestr(f"data/part{index:02d}.bin", chunk)
    return target
