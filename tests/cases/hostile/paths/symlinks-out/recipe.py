from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    outside = work / "outside"
    outside.mkdir()
    secret = outside / "echo.yaml"
    secret.write_bytes((plugin / "tools" / "echo.yaml").read_bytes())
    for name, target in {
        "tools/echo.yaml": secret,
        "_assets/icon.svg": Path("/etc/passwd"),
        "README.md": outside / "README.md",
        "provider/demo.py": Path("/etc/hostname"),
    }.items():
        (plugin / name).unlink()
        (plugin / name).symlink_to(target)
    (outside / "README.md").write_text("# Outside\n")
    return plugin
