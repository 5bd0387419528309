from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Plain:
    def shown(self, params: dict[str, Any]) -> str:
        return f"{params.get('prefix') or ''}{params['text']}"


class Loud:
    def shown(self, params: dict[str, Any]) -> str:
        return str(params["text"]).upper()


class Rebound(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # The name is bound to two classes: which `shown` runs is unclear, so nothing is said.
        shower = Plain()
        if tool_parameters.get("mode", "upper") == "upper":
            shower = Loud()
        yield self.create_text_message(shower.shown(tool_parameters))
