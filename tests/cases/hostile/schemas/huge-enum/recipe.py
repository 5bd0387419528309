from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    path = plugin / "tools" / "echo.yaml"
    text = path.read_text()
    values = ", ".join(f"v{i}" for i in range(100_000))
    text = text.replace("    echoed:\n      type: string\n", f"    echoed:\n      type: string\n      enum: [{values}]\n")
    path.write_text(text)
    return plugin
