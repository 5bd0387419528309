from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    for name in ("be\x07ll.yaml", "new\nline.yaml", "\u202elmay.exe.yaml"):
        (plugin / "tools" / name).write_bytes((plugin / "tools" / "echo.yaml").read_bytes())
    return plugin
