from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Kept(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Kept on self and read by another method: `limit` is read nowhere.
        self.params = tool_parameters
        yield self.create_text_message(self._shaped())

    def _shaped(self) -> str:
        text = str(self.params["text"])
        if self.params.get("mode", "upper") == "upper":
            text = text.upper()
        if "prefix" in self.params:
            text = f"{self.params['prefix']} {text}"
        return text
