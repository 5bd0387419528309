import datetime
from collections.abc import Generator
from typing import Any

from pydantic import BaseModel

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Chunk(BaseModel):
    content: str
    position: int


class Structure(BaseModel):
    chunks: list[Chunk]
    made: datetime.date


class CaseTool(Tool):
    """Yields a pydantic model as a variable value, as Dify's own parent-child chunker does."""

    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        result = Structure(chunks=[Chunk(content="a", position=0)], made=datetime.date(2025, 1, 2))
        yield self.create_variable_message("result", result)
        yield self.create_variable_message("pair", (1, 2))
