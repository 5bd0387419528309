from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.rates import client


class ConvertTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        source = str(tool_parameters["source"]).upper()
        target = str(tool_parameters["target"]).upper()
        amount = float(tool_parameters["amount"])
        with client(self.runtime.credentials) as rates:
            response = rates.get("/v1/latest", params={"base": source, "symbols": target})
            response.raise_for_status()
            data = response.json()
        rate = float(data["rates"][target])
        converted = round(amount * rate, 2)
        yield self.create_variable_message("rate", rate)
        yield self.create_variable_message("converted", converted)
        yield self.create_variable_message("date", data["date"])
        yield self.create_text_message(f"{amount:g} {source} = {converted:g} {target} (rate {rate:g}, {data['date']})")
