from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


# No tool YAML names this file yet: not loaded, but the signature already cannot take the SDK's call.
class Draft(Tool):
    def _invoke(self, tool_parameters: dict[str, Any], user_id: str) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message(f"{user_id}: {tool_parameters}")
