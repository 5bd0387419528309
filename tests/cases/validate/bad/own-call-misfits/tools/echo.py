from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from utils.client import ApiError, Client, Options, PlainRenderer, joined


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        path = str(tool_parameters["path"])
        client = Client(self.runtime.credentials["api_key"], zone="us")  # `__init__` takes `region`
        options = Options(limit=5)  # a dataclass's generated `__init__`: not judged
        if path.startswith("#"):
            yield self.create_text_message(self._label(path, "md"))  # only calls that take the branch
        item = client.fetch(joined("items", path))  # `*parts`: any number fits
        if not item:
            raise ApiError(404)  # an exception class's own `__init__`: `detail` left out
        yield self.create_json_message({"item": item, "limit": options.limit})
        yield self.create_text_message(PlainRenderer().show(path))

    def _label(self, path: str) -> str:
        return path.strip("#")
