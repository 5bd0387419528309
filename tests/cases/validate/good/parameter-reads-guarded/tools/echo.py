from collections.abc import Generator
from contextlib import suppress
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Every read below names a key the YAML does not declare, and none can fail.
        text = str(tool_parameters["text"])  # declared
        tool_parameters["suffix"] = "!"  # stored before it is read
        text += tool_parameters["suffix"]
        tool_parameters.setdefault("prefix", "")
        text = tool_parameters["prefix"] + text
        if "style" in tool_parameters:  # a membership test guards the read
            text = f"{tool_parameters['style']}: {text}"
        if "tone" not in tool_parameters.keys():
            text = text.lower()
        else:
            text = tool_parameters["tone"] + text
        try:
            text += tool_parameters["note"]
        except KeyError:
            pass
        try:
            text += tool_parameters["footer"]
        except (ValueError, LookupError):
            pass
        with suppress(KeyError):
            text += tool_parameters["signature"]
        language = tool_parameters.get("language", "en")  # .get never raises
        if tool_parameters.get("emphasis"):
            text = tool_parameters["emphasis"] + text
        yield self.create_text_message(f"{language}: {text}")
