from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])  # declared: fine
        # Not declared in tools/echo.yaml: Dify never passes it, so every call stops here.
        count = int(tool_parameters["repeat"])
        if tool_parameters.get("mode") == "upper":
            # Not declared either, read only on this branch: every call that takes it fails.
            text = text.upper() + tool_parameters["suffix"]
        yield self.create_text_message(text * count)
