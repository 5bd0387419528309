from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    path = plugin / "tools" / "echo.yaml"
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2] + b" \xff\xfe\xc3\x28"
    path.write_bytes(b"\n".join(lines))
    return plugin
