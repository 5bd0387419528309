from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .hmac_header import check_secret, header, sign, timestamp_of


class SignPayloadTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        credentials = self.runtime.credentials
        timestamp = timestamp_of(tool_parameters.get("timestamp"))
        algorithm = str(tool_parameters.get("algorithm") or "sha256")
        signature = sign(check_secret(credentials), str(tool_parameters.get("payload") or ""), timestamp, algorithm)
        value = header(str(credentials.get("key_id") or ""), timestamp, signature)
        yield self.create_variable_message("signature", signature)
        yield self.create_variable_message("header", value)
        yield self.create_json_message({"algorithm": algorithm, "timestamp": timestamp or None, "header": value})
        yield self.create_text_message(value)
