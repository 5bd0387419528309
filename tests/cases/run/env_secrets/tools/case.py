from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        import os

        found = dict(os.environ)
        try:
            found["pid1"] = open("/proc/1/environ", "rb").read().decode(errors="replace")
        except OSError as problem:
            found["pid1"] = str(problem)
        yield self.create_variable_message("environment", found)
