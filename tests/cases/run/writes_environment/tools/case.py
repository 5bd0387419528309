from collections.abc import Generator
from pathlib import Path
from typing import Any

import dify_plugin
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

# As some libraries do on first import: unpack data beside their own code.
(Path(dify_plugin.__file__).parent / "unpacked-data.txt").write_text("cache")


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message("loaded")
