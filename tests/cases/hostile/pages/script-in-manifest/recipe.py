import re
from pathlib import Path

INJECT = (
    '<script>console.log("pwned");window.__pwned=1</script><img id="pwned-img" src=x onerror="window.__pwned=1">'
    '<svg id="pwned-svg" onload="window.__pwned=1"></svg><a id="pwned-link" href="javascript:window.__pwned=1">x</a>'
)


def build(plugin: Path, work: Path, port: int) -> Path:
    for name in ("manifest.yaml", "provider/demo.yaml", "tools/echo.yaml"):
        path = plugin / name
        text = re.sub(r"(en_US: )(.*)", lambda m: m.group(1) + "'" + m.group(2) + INJECT + "'", path.read_text())
        text = text.replace("llm: Repeats the given text.", "llm: '" + INJECT + "'")
        text = text.replace("llm_description: The text to repeat.", "llm_description: '" + INJECT + "'")
        path.write_text(text)
    return plugin
