from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage as Message


class Export(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[Message]:
        page = "<p>" + str(tool_parameters["text"]) + "</p>"
        # meta on the blob itself: dropped, the file comes without its name and type
        yield Message(
            type=Message.MessageType.BLOB,
            message=Message.BlobMessage(blob=page.encode(), meta={"mime_type": "text/html"}),
        )
        # meta on the message: read
        yield Message(
            type=Message.MessageType.BLOB,
            message=Message.BlobMessage(blob=page.encode()),
            meta={"mime_type": "text/html", "filename": "page.html"},
        )
        # a keyword for a field the text message lacks, its `text` never given: refused
        yield Message(type=Message.MessageType.TEXT, message=Message.TextMessage(content=page))
