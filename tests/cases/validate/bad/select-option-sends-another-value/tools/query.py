from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Query(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        chosen = [str(tool_parameters[name]) for name in ("engine", "action", "unit", "lang")]
        yield self.create_text_message(" ".join(chosen))
