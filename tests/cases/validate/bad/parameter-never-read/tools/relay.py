from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def relayed(text: str = "", **options: Any) -> str:
    return f"{text} {options}"


class Relay(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Handed over whole: `mode` may be read there, so nothing is said of it.
        text = str(tool_parameters["text"])
        yield self.create_text_message(relayed(**tool_parameters) or text)
