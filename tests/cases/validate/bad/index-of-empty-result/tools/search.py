from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .catalogue import titles

BOOKS = {"python": ["Fluent Python"], "go": ["The Go Programming Language"]}


class Catalogue:
    def search(self, query: str) -> tuple[int, list[str]]:
        found = BOOKS.get(query, [])
        if not found:
            return 0, []
        return len(found), found


class SearchTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        total, books = Catalogue().search(tool_parameters["query"])
        first = books[0]
        named = titles(tool_parameters["query"])
        yield self.create_json_message({"total": total, "first": first, "books": books, "title": named[0]})
