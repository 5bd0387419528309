from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    folder = plugin / "tools" / "echo.recordings"
    folder.mkdir(parents=True)
    (folder / "hello.yaml").symlink_to("/etc/passwd")
    return plugin
