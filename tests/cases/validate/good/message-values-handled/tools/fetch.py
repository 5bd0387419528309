from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .summary import summary_of


class FetchTool(Tool):
    def page_text(self, url: str) -> str:
        try:
            with open(url, encoding="utf-8") as page:
                return page.read()
        except OSError as error:
            return f"cannot read {url}: {error}"

    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        yield self.create_text_message(self.page_text(tool_parameters["url"]))
        summary = summary_of(tool_parameters["url"])
        if summary is not None:  # tested before the message is built
            yield self.create_json_message(summary)
        yield self.create_variable_message("summary", summary_of(tool_parameters["url"]))  # takes None
