from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

try:  # libraries probe for an optional accelerator this way, and go on without it
    from tools import heavy
except OSError:
    heavy = None

from tools.heavy import native


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message(f"{tool_parameters['text']} {native}")
