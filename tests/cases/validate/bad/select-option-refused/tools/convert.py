from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .languages import check_language

FACTORS = {"km": 1000.0, "m": 1.0}


class Converter:
    def __init__(self, distance: float) -> None:
        self.distance = distance

    def run(self, mode: str) -> str:
        return self.shown(mode)

    def shown(self, mode: str) -> str:
        assert mode in ["exact", "rounded"], "unknown mode"
        return str(self.distance if mode == "exact" else round(self.distance))


class ConvertTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        mode = tool_parameters.get("mode")
        if not mode:
            mode = "exact"
        language = tool_parameters["language"]
        check_language(language)
        metres = tool_parameters["distance"] * FACTORS[tool_parameters["unit"]]
        yield self.create_text_message(Converter(metres).run(mode))
