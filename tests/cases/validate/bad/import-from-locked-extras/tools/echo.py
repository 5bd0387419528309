from collections.abc import Generator
from typing import Any

import bs4  # beautifulsoup4 comes with the `html` extra of pandas (uv.lock)
import lxml  # only the `xml` extra brings lxml, and it is not asked for
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        if tool_parameters.get("mode") == "lower":
            import colorama  # pandas brings it on Windows only

            print(colorama)
        yield self.create_text_message(f"{tool_parameters['text']} {bs4} {lxml}")
