import os
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.worker import worker_identity


class CrashTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_variable_message("worker", worker_identity())
        if tool_parameters["step"] == "crash":
            os._exit(3)
        yield self.create_text_message("passed")
