from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    outside = work / "elsewhere.yaml"
    outside.write_bytes((plugin / "manifest.yaml").read_bytes())
    (plugin / "manifest.yaml").unlink()
    (plugin / "manifest.yaml").symlink_to(outside)
    return plugin
