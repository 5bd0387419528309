from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        url = tool_parameters["url"]
        if not url.startswith("https://"):
            raise ValueError(f"{url!r} is not an https URL")
        yield self.create_link_message(url)
