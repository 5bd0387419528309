from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Crop(Tool):
    # fine: takes what the SDK gives and hands it on
    def __init__(self, runtime: Any, session: Any, margin: int = 0) -> None:
        super().__init__(runtime, session)
        self.margin = margin

    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message(f"{tool_parameters['image']} {self.margin} {tool_parameters.get('logo')}")
