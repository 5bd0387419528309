import urllib.request
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

# a program the tool needs, downloaded as the module is imported (as `pypandoc.download_pandoc()` does)
urllib.request.urlopen("https://downloads.example.invalid/converter.tar.gz", timeout=5)


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message(tool_parameters["city"])
