from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # The answer names the credential the run did not have, and the word "provider" as well:
        # it is about the credential, not about the optional parameter `provider`.
        api_key = self.runtime.credentials.get("api_key")
        if not api_key:
            yield self.create_text_message("Error: Missing api_key in provider credentials.")
            return
        provider = tool_parameters.get("provider") or "default"
        yield self.create_text_message(f"{tool_parameters['text']} via {provider}")
