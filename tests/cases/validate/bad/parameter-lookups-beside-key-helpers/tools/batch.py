from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.common import described, required


class Batch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        ticker = required(tool_parameters, "ticker")
        # `described` reads every parameter, `limit` among them: not told
        yield self.create_text_message(f"{ticker}: {described(tool_parameters)}")
