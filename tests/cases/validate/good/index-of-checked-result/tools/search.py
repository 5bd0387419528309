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
        if not books:  # the empty case answered before any item is taken
            yield self.create_text_message("Nothing found.")
            return
        named = titles(tool_parameters["query"])
        try:
            title = named[0]
        except IndexError:
            title = ""
        yield self.create_json_message({"total": total, "first": books[0], "title": title})
