from pathlib import Path

from tests.packages import zip_plugin


def build(plugin: Path, work: Path, port: int) -> Path:
    target = work / "damaged.difypkg"
    with zip_plugin(plugin, target) as archive:
        archive.writestr("zz.txt", b"z" * 64)
    data = bytearray(target.read_bytes())
    start = data.index(b"tools/echo.yaml") + len("tools/echo.yaml")
    for offset in range(start + 10, start + 60):
        data[offset] ^= 0x5A
    target.write_bytes(bytes(data))
    return target
