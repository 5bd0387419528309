from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def shout(tool: Tool, text: str) -> Generator[ToolInvokeMessage]:
    yield tool.create_text_message(text.upper())


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        if text.startswith("!"):
            yield shout(self, text)  # a module generator function: yields its generator object
            return
        yield from self._answer(text)

    def _answer(self, text: str) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message("answering")
        yield self._details(text)  # delegated to with yield from: its own yields reach the SDK too

    def _details(self, text: str) -> Generator[ToolInvokeMessage]:
        yield self.create_json_message({"text": text})
