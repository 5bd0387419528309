from collections.abc import Generator
from typing import Any

from dify_plugin.entities.tool import ToolInvokeMessage

from utils.base import SavingTool


class Echo(SavingTool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = tool_parameters["text"]
        data = text.encode()
        self.save("last", data)
        yield self.create_blob_message(data, save_as="echo.txt")
        yield self.create_text_message("echoed:", text)
        yield self.create_variable_message("total")
        yield self.create_image_message(image="https://example.com/echo.png")
        try:
            yield self.create_json_message(json={"echoed": text}, indent=2)
        except Exception as error:
            yield self.create_text_message(f"failed: {error}")
        self.session.app.workflow.invoke(app_id="app", inputs={"text": text}, user="someone")
        storage = self.session.storage
        yield self.create_text_message(storage.get("last", "fallback").decode())
        summary = self.session.model.summary(text=text, instruction="one line")
        yield self.create_text_message(summary)

    def _fallback(self, text: str) -> Generator[ToolInvokeMessage]:
        try:
            yield self.create_text_message(text.encode("ascii").decode())
        except UnicodeError as error:
            # runs only when the guarded line fails: then a TypeError instead of this answer
            yield self.create_text_message("not ascii", str(error))

    def _named(self, data: bytes) -> Generator[ToolInvokeMessage]:
        try:
            # no release takes `save_as`: the handler's form runs every time, the file never named
            yield self.create_blob_message(data, save_as="echo.txt")
        except TypeError:
            yield self.create_blob_message(data)
