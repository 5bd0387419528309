from collections.abc import Generator
from typing import Any

from dify_plugin import Tool, get_current_session  # newer than the 0.2 this plugin installs
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message(f"{tool_parameters['text']} {get_current_session}")
        _ = tool_parameters.get("mode")  # declared in the YAML, so read
