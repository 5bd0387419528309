from pathlib import Path


def build(plugin: Path, work: Path, port: int) -> Path:
    path = plugin / "tools" / "echo.yaml"
    head = path.read_text().split("output_schema:")[0]
    links = "".join(f"    d{i}: {{$ref: '#/definitions/d{i + 1}'}}\n" for i in range(400))
    schema = (
        "output_schema:\n  type: object\n  definitions:\n" + links + "    d400: {type: integer}\n"
        "  properties:\n    echoed: {type: string}\n    deep: {$ref: '#/definitions/d0'}\n"
    )
    path.write_text(head + schema + "extra:\n  python:\n    source: tools/echo.py\n")
    return plugin
