from collections.abc import Generator
from contextlib import suppress
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # The YAML declares `text`, `mode`, `UserImageUrl` and `quarter`; every other name is never passed.
        text = str(tool_parameters["text"])
        image = tool_parameters.get("userImageUrl")  # `UserImageUrl` in the YAML, never read: an error
        period = tool_parameters.get("qaurter", "Q1")  # `quarter` misspelt, never read: an error
        if "style" in tool_parameters:  # always False; the read it guards is not reported again
            text = f"{tool_parameters['style']}: {text}"
        if "tone" not in tool_parameters.keys():
            text = text.lower()
        try:
            text += tool_parameters["note"]  # always KeyError, always caught
        except KeyError:
            pass
        with suppress(KeyError):
            text += tool_parameters["signature"]
        language = tool_parameters.get("language", "en")
        if tool_parameters.get("emphasis"):  # one finding for the key, at its first lookup
            text = tool_parameters["emphasis"] + text
        language = tool_parameters.get("language", language)
        mode = tool_parameters.get("Mode") or tool_parameters.get("mode")  # a dead fallback beside the declared name: silent
        text = tool_parameters.get("text") or tool_parameters.get("query") or text  # an agent's alias: silent
        tool_parameters["suffix"] = "!"  # stored by the code itself: never reported
        text += tool_parameters.get("suffix", "")
        yield self.create_text_message(f"{language}: {text} {image} {period} {mode}")
