from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Other(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        environment = self.runtime.credentials.get("environment")  # the same key: listed in one finding
        self.runtime.credentials["cached"] = "yes"  # stored by the plugin itself
        yield self.create_text_message(f"{environment} {self.runtime.credentials['cached']} {len(tool_parameters)}")
