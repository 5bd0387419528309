import os
import sys
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

try:
    from utils.styles import STYLES  # shipped with the plugin: found
except ImportError:
    STYLES = {}

# a module from two folders above the plugin, which the package never holds
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
try:
    from house_styles import HOUSE_STYLES
except Exception:
    HOUSE_STYLES = {}  # always taken: the `style` option never has an effect


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        style = HOUSE_STYLES.get(tool_parameters.get("mode", ""), STYLES["plain"])
        if tool_parameters.get("mode") == "lower":
            try:
                import fancy_case
            except ImportError:
                raise ImportError("install fancy-case") from None  # raised again: the call fails
            yield self.create_text_message(fancy_case.lower(tool_parameters["text"]))
        yield self.create_text_message(f"{tool_parameters['text']} {style}")
