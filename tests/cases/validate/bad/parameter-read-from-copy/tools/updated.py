from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


DEFAULTS = {"mode": "upper"}


class Updated(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # The copy is updated and handed over: any key may be read, so nothing is said.
        params = dict(tool_parameters)
        params.update(DEFAULTS)
        yield self.create_text_message(str(params))
