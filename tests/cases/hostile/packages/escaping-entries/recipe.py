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
    target = work / "slip.difypkg"
    with package(plugin, target) as archive:
        for name in ("../../escaped.txt", "/tmp/hostile-absolute.txt", "C:/hostile.txt", "tools/../../up.txt"):
            archive.writestr(name, b"escaped")
    return target
