from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def options_of(params: dict[str, Any]) -> dict[str, Any]:
    # a module function the tool hands its parameters to: its lookups are the tool's
    return {"debug": params.get("debug_mode", False), "mode": params.get("mode")}


def describe(values: dict[str, Any]) -> str:
    # called with another dictionary: its keys are not the tool's
    return str(values.get("colour"))


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        self.settings = self.settings_of(tool_parameters)
        options = options_of(params=tool_parameters)
        shown = describe({"colour": "red"})
        yield self.create_json_message({"input": tool_parameters, "options": options, "shown": shown})
        yield self.create_text_message(tool_parameters["text"].upper() if self.settings else "")

    def settings_of(self, tool_parameters: dict[str, Any]) -> dict[str, Any]:
        region = tool_parameters.get("region", "eu-west-1")
        environment = tool_parameters.get("ENV", "prod").strip().lower()  # never declared
        return {"region": region, "environment": environment, "local": self.local_of(tool_parameters)}

    def local_of(self, parameters: dict[str, Any]) -> bool:
        return "local_path" in parameters  # a helper of the helper
