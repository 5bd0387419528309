import json
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.rates import client


class RateHistoryTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        params = {
            "base": str(tool_parameters["source"]).upper(),
            "symbol": str(tool_parameters["target"]).upper(),
            "days": int(tool_parameters.get("days") or 5),
        }
        points = []
        # the service streams one JSON object per line (NDJSON), one line per day
        with client(self.runtime.credentials) as rates, rates.stream("GET", "/v1/history", params=params) as response:
            response.raise_for_status()
            for line in response.iter_lines():
                if line.strip():
                    day = json.loads(line)
                    points.append({"date": day["date"], "rate": float(day["rate"])})
        yield self.create_variable_message("points", points)
        if points:
            yield self.create_variable_message("lowest", min(p["rate"] for p in points))
            yield self.create_variable_message("highest", max(p["rate"] for p in points))
        yield self.create_text_message(f"{len(points)} daily rates of {params['base']}/{params['symbol']}")
