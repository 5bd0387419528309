from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    long = "W" * 100_000
    for name in ("manifest.yaml", "tools/echo.yaml"):
        path = plugin / name
        path.write_text(path.read_text().replace("en_US: Demo\n", f"en_US: {long}\n", 1).replace("en_US: Echo\n", f"en_US: {long}\n", 1).replace("en_US: Repeats the text.", f"en_US: {long}").replace("llm: Repeats the given text.", f"llm: {long}"))
    return plugin
