from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from schemas.request import NamedRequest, PageRequest, SearchRequest


class Lookup(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        # `start` has the alias `from`: the value is dropped, the search always starts at the top
        search = SearchRequest(query=text, start=5, limit=20)
        # by alias: fine
        first = SearchRequest(query=text, **{"from": 5})
        # populates by name: fine
        named = NamedRequest(start=5)
        yield self.create_json_message(search.model_dump(by_alias=True))
        yield self.create_json_message(first.model_dump(by_alias=True))
        yield self.create_json_message(named.model_dump(by_alias=True))
        # `page` is required under `pageNumber`: refused, on every call
        page = PageRequest(page=len(text))
        yield self.create_json_message(page.model_dump(by_alias=True))
