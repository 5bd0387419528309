"""Echo, with a forecast from https://docs.acme-weather.com/forecast (a link for readers)."""

import requests

from dify_plugin import Tool

BASE = "https://api.acme-weather.com/v1"
TILES = "https://tiles.mapvendor.io/{z}/{x}/{y}.png"  # see https://status.mapvendor.io
SOURCE = "https://github.com/acme/demo"


class Echo(Tool):
    def _invoke(self, tool_parameters: dict):
        url = tool_parameters.get("url") or BASE
        reply = requests.get(url, timeout=10)
        requests.get("https://api.acme-weather.com/v1/ping", timeout=5)
        yield self.create_text_message(reply.text)
