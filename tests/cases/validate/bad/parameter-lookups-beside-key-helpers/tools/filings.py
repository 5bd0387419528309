from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.common import required


class Filings(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        ticker = required(tool_parameters, "ticker")
        year = required(tool_parameters, name="year")
        quarter = tool_parameters.get("qarter")  # the YAML declares `quarter`
        yield self.create_json_message({"ticker": ticker, "year": year, "quarter": quarter})
