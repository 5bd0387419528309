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
    target = work / "cut.difypkg"
    with package(plugin, target):
        pass
    data = target.read_bytes()
    target.write_bytes(data[: len(data) // 2])
    return target
