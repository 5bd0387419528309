from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Resize(Tool):
    def __init__(self) -> None:  # the SDK passes runtime= and session=: TypeError on every call
        super().__init__()  # type: ignore[call-arg]
        self.sizes = (256, 512)

    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        logo = "with a logo" if tool_parameters.get("logo") else "without a logo"
        yield self.create_text_message(f"resized {tool_parameters['image']} to {self.sizes} {logo}")

