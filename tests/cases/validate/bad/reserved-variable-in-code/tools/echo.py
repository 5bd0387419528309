from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # A run without the API key stops at the request; the names below are wrong whatever it answers.
        reply = requests.get("https://api.example.com/echo", params={"key": self.runtime.credentials["api_key"]})
        text = str(tool_parameters["text"])
        yield self.create_variable_message("text", text)
        yield self.create_stream_variable_message(variable_name="json", variable_value=reply.text)
        yield self.create_variable_message("files", [])
        yield self.create_variable_message("echoed", text)  # a name of its own: fine
        name = "text"
        yield self.create_variable_message(name, text)  # not a literal: left to the run
        _ = tool_parameters.get("mode")  # declared in the YAML, so read
