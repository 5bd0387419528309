import time
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.worker import worker_identity

# most of the run's CPU limit: examples that shared one CPU clock would be stopped by the second
SECONDS = 0.7


class BurnTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        yield self.create_variable_message("worker", worker_identity())
        # "endless" never stops: the CPU-time limit must end it long before the wall clock
        end = float("inf") if tool_parameters["step"] == "endless" else time.process_time() + SECONDS
        while time.process_time() < end:
            pass
        yield self.create_text_message("burnt")
