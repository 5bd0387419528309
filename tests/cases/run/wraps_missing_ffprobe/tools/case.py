import subprocess
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        try:
            # PATH names no folder, so ffprobe is missing whether or not the test machine has ffmpeg.
            done = subprocess.run(
                ["ffprobe", tool_parameters["question"]],
                capture_output=True,
                check=True,
                env={"PATH": "/nonexistent-dify-registry-path"},
            )
        except Exception as e:
            # what audio tools do: the missing program only shows in the wrapping error's text
            raise RuntimeError(f"Error generating mixed audio: {e}") from e
        yield self.create_text_message(done.stdout.decode())
