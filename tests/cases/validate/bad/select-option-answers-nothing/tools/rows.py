from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Rows(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        rows = [line.split(",") for line in str(tool_parameters.get("data", "")).splitlines()]
        if not rows:
            yield self.create_text_message("No rows.")
            return
        shape = tool_parameters.get("shape", "json")
        try:
            if shape == "json":
                yield self.create_json_message({"rows": rows})
            elif shape == "csv":
                yield self.create_text_message("\n".join(",".join(row) for row in rows))
            elif shape == "html":
                cells = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
                result = f"<table>{cells}</table>"
            else:
                raise ValueError(f"unknown shape {shape}")
        except ValueError as error:
            yield self.create_text_message(f"Failed: {error}")
