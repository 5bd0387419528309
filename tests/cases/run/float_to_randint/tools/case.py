import random
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        low = float(len(tool_parameters["url"]))  # the plugin's own conversion
        high = low + 10
        number = random.randint(low, high)  # Python 3.12: whatever the URL, a float is refused
        yield self.create_text_message(str(number))
