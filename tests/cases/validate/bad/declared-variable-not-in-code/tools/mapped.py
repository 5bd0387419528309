from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Mapped(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        mapping = {"title": text.title(), "size": str(len(text))}
        for key in mapping:  # the keys of the literal are every name this loop sets: not `author`
            yield self.create_variable_message(key, mapping[key])
        for name, value in {"lang": "en"}.items():
            yield self.create_variable_message(name, value)
