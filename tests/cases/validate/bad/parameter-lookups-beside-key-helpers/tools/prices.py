from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.common import required


class Prices(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        ticker = required(tool_parameters, "ticker")
        yield self.create_text_message(f"prices of {ticker}")  # `limit` is never read
