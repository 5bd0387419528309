from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    """Answers with an error of its own when what another tool stores is missing."""

    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        try:
            token = self.session.storage.get("token").decode("utf-8")
        except Exception:
            yield self.create_text_message("Error: not connected, run the connect tool first")
            return
        yield self.create_text_message(f"{token}: {tool_parameters.get('text')}")
