import json
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Fetch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        query = str(tool_parameters["query"])
        if query.startswith("{"):
            import json  # makes json local to _invoke

            terms = json.loads(query)
        else:
            terms = {"q": query}
        # a plain query skips line 13: UnboundLocalError here
        yield self.create_text_message(json.dumps(terms))
        yield self.create_text_message(self._both(query) + self._looped([query]) + self._tried(query) + self._parsed(query))

    def _both(self, query: str) -> str:
        if query:
            import json
        else:
            import json  # noqa: F811
        return json.dumps(query)  # both branches bind it

    def _looped(self, queries: list[str]) -> str:
        text = ""
        for query in queries:
            if text:
                text += json.dumps(query)  # an earlier round bound it
            import json
        return text

    def _tried(self, query: str) -> str:
        try:
            import json
        except ImportError:
            return query
        return json.dumps(query)  # the try bound it, or the function returned

    def _parsed(self, query: str) -> str:
        try:
            import json

            return str(json.loads(query))
        except json.JSONDecodeError:  # only the import could fail before json is bound
            return query
