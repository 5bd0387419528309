from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Computed(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        for index, part in enumerate(text.split(",")):  # a computed name may set any variable
            yield self.create_variable_message(f"out_{index}", part)
        mapping = {"first": text}
        mapping["extra"] = text  # a literal changed after it is written may hold any key
        for key in mapping:
            yield self.create_variable_message(key, mapping[key])
