from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    """Reads what another tool of the plugin (a "connect" tool) stored: a fresh run has none."""

    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = tool_parameters.get("text") or ""
        try:
            file_id = self.session.storage.get("file_id").decode("utf-8")
        except Exception as problem:
            raise Exception(f"adding the sheet failed: {problem}") from problem
        yield self.create_text_message(f"{file_id}: {text}")
