import os
import sys
import traceback
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        try:
            raise ValueError("a handled error")
        except ValueError:
            traceback.print_exc()  # a frame in this file, on standard error
        yield self.create_text_message(f"{__file__} {sys.executable} {os.__file__}")
