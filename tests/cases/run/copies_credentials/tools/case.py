import copy
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Dify's runtime credentials are a plain dict: copying them works there
        credentials = copy.deepcopy(self.runtime.credentials)
        credentials["api_key"] = credentials["api_key"].strip()
        yield self.create_text_message(tool_parameters["text"] + str(len(credentials["api_key"])))
