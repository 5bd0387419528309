import subprocess
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        done = subprocess.run(
            ["dify-registry-no-such-program", tool_parameters["question"]], capture_output=True, check=True
        )
        yield self.create_text_message(done.stdout.decode())
