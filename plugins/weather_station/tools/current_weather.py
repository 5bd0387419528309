from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .stations import condition_icon, find_station, to_unit

SYMBOLS = {"celsius": "°C", "fahrenheit": "°F"}


class CurrentWeatherTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        unit = tool_parameters.get("units") or "celsius"
        if unit not in SYMBOLS:
            raise ValueError(f"Unknown unit {unit!r}; use celsius or fahrenheit.")
        observed_at, station = find_station(str(tool_parameters.get("location") or ""))
        temperature = to_unit(station["temperature_c"], unit)
        yield self.create_variable_message("temperature", temperature)
        yield self.create_variable_message("conditions", station["conditions"])
        yield self.create_variable_message("forecast", station["forecast"])
        yield self.create_json_message(
            {
                "location": station["city"],
                "observed_at": observed_at,
                "temperature": temperature,
                "units": unit,
                "conditions": station["conditions"],
                "forecast": station["forecast"],
                "humidity": station["humidity"],
                "wind_kph": station["wind_kph"],
            }
        )
        # The icon is uploaded so that the image message carries a URL Dify can fetch,
        # instead of the made-up map URL of the original example.
        icon = self.session.file.upload(
            f"{station['conditions'].lower().replace(' ', '-')}.svg",
            condition_icon(station["conditions"]),
            mimetype="image/svg+xml",
        )
        if icon.preview_url:
            yield self.create_image_message(icon.preview_url)
        yield self.create_link_message(station["page"])
        yield self.create_text_message(
            f"Weather in {station['city']}: {temperature}{SYMBOLS[unit]}, {station['conditions']}. "
            f"Forecast: {station['forecast']}"
        )
