from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def forward(url: str, text: str) -> str:
    return requests.post(url, data=text, timeout=30).text  # silent: the caller tested the value


def forward_again(url: str, text: str) -> str:
    return requests.put(url, data=text, timeout=30).text  # silent: the caller catches the failure


class Relay(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        target = tool_parameters.get("target")
        text = tool_parameters["text"]
        try:
            yield self.create_text_message(forward_again(target, text))
        except Exception as error:
            yield self.create_text_message(f"Relay failed: {error}")
        if not target:
            yield self.create_text_message("No target given.")
            return
        yield self.create_text_message(forward(target, text))
