from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Search(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        query = str(tool_parameters.get("query", ""))
        # `hl` is another name a model may send for `language`, not a misspelt read of `compact`
        language = tool_parameters.get("language") or tool_parameters.get("hl")
        yield self.create_json_message({"query": query, "language": language})
