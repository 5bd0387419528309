from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        text = tool_parameters["text"]
        # Python 3.12 syntax (PEP 701): the same quotes inside the f-string's braces
        shown = f"{", ".join(text.split(" "))}"
        self.create_text_message(shown)
        yield self.create_json_message({"echoed": shown})
