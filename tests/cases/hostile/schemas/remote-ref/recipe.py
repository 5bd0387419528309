from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    path = plugin / "tools" / "echo.yaml"
    path.write_text(path.read_text().replace("PORT", str(port)))
    return plugin
