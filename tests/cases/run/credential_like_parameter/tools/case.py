from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # the parameter overrides the provider's URI; Dify always supplies the required credential
        uri = tool_parameters.get("neo4j_uri") or self.runtime.credentials["neo4j_uri"]
        yield self.create_text_message(f"{tool_parameters['text']} at {uri}")
