import os
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Fetch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        credentials = self.runtime.credentials
        api_key = credentials.get("api_key") or "Zq7Lm2Pw9Xr4Tk8Vb3Nd"  # the author's key, made up here
        region = os.getenv("ACME_REGION", "eu-central-1-zone-b2")  # not a key: silent
        token = os.getenv("ACME_TOKEN", "your-access-token-here")  # a placeholder: silent
        yield self.create_text_message(f"{tool_parameters['query']} {api_key[:2]} {region} {token[:2]}")
