import zipfile
from pathlib import Path

from tests.packages import zip_plugin


def build(plugin: Path, work: Path, port: int) -> Path:
    target = work / "links.difypkg"
    with zip_plugin(plugin, target) as archive:
        for name, points in (("_assets/passwd.svg", "/etc/passwd"), ("tools/up.py", "../../../../root")):
            link = zipfile.ZipInfo(name)
            link.external_attr = (0o120777) << 16
            archive.writestr(link, points)
    return target
