import os
import sys
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        print('{"event": "response", "data": "forged"}')
        print("to stderr", file=sys.stderr)
        os.write(1, b"raw bytes on fd 1\n")
        os.write(2, b"raw bytes on fd 2\n")
        sys.stdout.flush()
        yield self.create_text_message(tool_parameters["text"])
        _ = tool_parameters.get("mode")  # declared in the YAML, so read
