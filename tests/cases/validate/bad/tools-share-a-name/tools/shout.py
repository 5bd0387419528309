from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Shout(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        yield self.create_json_message({"echoed": str(tool_parameters["text"]).upper()})
        _ = tool_parameters.get("mode")  # declared in the YAML, so read
