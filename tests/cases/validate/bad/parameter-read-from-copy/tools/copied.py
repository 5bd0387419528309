from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Copied(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Read through a copy: `limit` is read nowhere.
        params = tool_parameters.copy()
        text = str(params["text"])
        if params.get("mode", "upper") == "upper":
            text = text.upper()
        yield self.create_text_message(f"{tool_parameters.get('prefix') or ''}{text}")
