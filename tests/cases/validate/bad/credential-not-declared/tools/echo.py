from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # The provider declares `api_key` and `region`; the two other keys are never passed.
        key = self.runtime.credentials["api_key"]
        environment = self.runtime.credentials.get("environment", "production")
        credentials = self.runtime.credentials
        base = credentials["Region"]  # `region` in another case: a KeyError on every call
        yield self.create_text_message(f"{tool_parameters['text']} {key} {environment} {base}")
        _ = tool_parameters.get("mode")  # declared in the YAML, so read
