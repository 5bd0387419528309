from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        import pathlib

        results = []
        for target in ["/tmp/dify-registry-escape-marker", "../../dify-registry-escape-marker",
                       "/var/tmp/dify-registry-escape-marker", "/root/dify-registry-escape-marker"]:
            try:
                pathlib.Path(target).write_text("escaped")
                results.append(f"wrote {target}")
            except OSError as problem:
                results.append(f"refused {target}: {problem.strerror}")
        yield self.create_text_message("; ".join(results))
