from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.catalogue import Catalogue


class SearchBooksTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        catalogue = Catalogue(self.runtime.credentials)
        limit = int(tool_parameters.get("limit") or 3)
        found = catalogue.get("/v1/search", q=tool_parameters["query"], limit=limit)
        books = [
            {"id": str(b["id"]), "title": b["title"], "author": b["author"], "year": int(b["year"])}
            for b in found.get("results", [])[:limit]
        ]
        yield self.create_variable_message("books", books)
        if not books:
            yield self.create_text_message(f"No book matches {tool_parameters['query']!r}.")
            return
        details = catalogue.get(f"/v1/books/{books[0]['id']}")
        best = {"title": details["title"], "pages": int(details["pages"]), "summary": details["summary"]}
        yield self.create_variable_message("best", best)
        lines = [f"{b['title']} by {b['author']} ({b['year']})" for b in books]
        yield self.create_text_message("\n".join(lines))
