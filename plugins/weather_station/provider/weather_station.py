from typing import Any

from dify_plugin import ToolProvider


class WeatherStationProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # The observations ship with the plugin: no weather service account is involved.
        return None
