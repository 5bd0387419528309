from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Spread(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Read through `{**d}` and `dict(d)`: `limit` is read nowhere.
        first = {**tool_parameters}
        second = dict(tool_parameters)
        text = str(first["text"])
        if second.pop("mode", "upper") == "upper":
            text = text.upper()
        yield self.create_text_message(f"{first.get('prefix') or ''}{text}")
