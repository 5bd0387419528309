from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools import options as opts

from .helpers import account_of, build_payload, describe, validate_params


class PosterTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        validate_params(tool_parameters, ["title"])
        payload = build_payload(tool_parameters)
        payload["account"] = account_of(tool_parameters)
        payload["verbose"] = opts.verbose(tool_parameters)
        payload["text"] = describe(tool_parameters)
        yield self.create_json_message(payload)
