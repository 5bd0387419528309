import sqlite3
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Keyed(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        prefix = str(tool_parameters["prefix"])
        connection = sqlite3.connect(":memory:")
        connection.row_factory = sqlite3.Row  # rows are mappings: not told
        cursor = connection.cursor()
        cursor.execute("SELECT name, type FROM sqlite_master WHERE name LIKE ?", (prefix + "%",))
        tables = cursor.fetchall()
        yield self.create_variable_message("tables", tables)
        yield self.create_variable_message("names", [str(name) for name, _ in tables])
        yield self.create_variable_message("first", connection.execute("SELECT 1, 2").fetchone())
        connection.close()
