from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    (plugin / "tools" / "echo.yaml").write_text("x: " + "[" * 5000 + "]" * 5000 + "\n")
    nested = "".join("  " * depth + f"k{depth}:\n" for depth in range(2000)) + "  " * 2000 + "end\n"
    (plugin / "tools" / "deep.yaml").write_text(nested)
    provider = plugin / "provider" / "demo.yaml"
    provider.write_text(provider.read_text().replace("  - tools/echo.yaml\n", "  - tools/echo.yaml\n  - tools/deep.yaml\n"))
    return plugin
