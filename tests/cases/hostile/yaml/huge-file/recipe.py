from pathlib import Path

SIZE = 300 * 1024 * 1024


def build(plugin: Path, work: Path, port: int) -> Path:
    for name in ("tools/echo.yaml", "README.md"):
        with (plugin / name).open("ab") as grow:
            grow.truncate(SIZE)
    return plugin
