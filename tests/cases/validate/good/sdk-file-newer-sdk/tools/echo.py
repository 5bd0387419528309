from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        template = tool_parameters["template"]
        named = template.filename or "template"
        kind = template.mime_type
        yield self.create_variable_message("echoed", f"{named} ({kind}): {len(template.blob)} bytes")
        _ = tool_parameters.get("text")  # declared in the YAML, so read
