from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.catalogue import Catalogue


class BookCoverTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        catalogue = Catalogue(self.runtime.credentials)
        data, mime_type = catalogue.image(f"/v1/books/{tool_parameters['book_id']}/cover")
        yield self.create_blob_message(data, meta={"mime_type": mime_type, "filename": "cover.png"})
        yield self.create_variable_message("size", len(data))
