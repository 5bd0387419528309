from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        site_url = tool_parameters.get("site_url")
        if not site_url:
            yield self.create_text_message("投稿に失敗しました。site_url を設定してください。")
            return
        yield self.create_text_message(f"{site_url}: {tool_parameters['text']}")
