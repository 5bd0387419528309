from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Opaque:
    """Nothing pydantic knows how to serialise."""


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message("before")
        yield self.create_variable_message("thing", Opaque())
        yield self.create_text_message("never sent: the SDK ends the invocation at the message before")
