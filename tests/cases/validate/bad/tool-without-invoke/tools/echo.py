from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    """The work is done in `run`, which the SDK never calls: `_invoke` is abstract."""

    def run(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message(str(tool_parameters.get("text", "")))
