from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # the error path of many real tools: every declared variable set to None
        for number in range(1, 15):
            yield self.create_variable_message(f"field_{number:02d}", None)
        yield self.create_variable_message("extra_a", 1)
        yield self.create_variable_message("extra_b", 2)
