from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage, ToolProviderType


class Relay(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        # the upstream plugin this one was forked from: not installed with this one
        yield from self.session.tool.invoke_builtin_tool(
            provider="upstream/demo/demo", tool_name="echo", parameters={"text": text}
        )
        yield from self.session.tool.invoke(ToolProviderType.BUILT_IN, "upstream/demo/demo", "echo", {"text": text})
        # this plugin's own id and another plugin's: not told
        yield from self.session.tool.invoke_builtin_tool("acme/demo/demo", "echo", {"text": text})
        yield from self.session.tool.invoke_builtin_tool(
            provider="langgenius/time/time", tool_name="current_time", parameters={}
        )
