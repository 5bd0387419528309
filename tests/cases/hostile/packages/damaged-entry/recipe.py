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
    target = work / "damaged.difypkg"
    with package(plugin, target) as archive:
        archive.writestr("zz.txt", b"z" * 64)
    data = bytearray(target.read_bytes())
    start = data.index(b"tools/echo.yaml") + len("tools/echo.yaml")
    for offset in range(start + 10, start + 60):
        data[offset] ^= 0x5A
    target.write_bytes(bytes(data))
    return target
