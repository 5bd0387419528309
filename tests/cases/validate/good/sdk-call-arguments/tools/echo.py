from collections.abc import Generator
from typing import Any

from dify_plugin.entities.tool import ToolInvokeMessage

# The module, not the class: a second Tool subclass in this namespace would make the SDK refuse it.
from utils import base


class Echo(base.SavingTool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = tool_parameters["text"]
        data = text.encode()
        self.save("last", data)
        yield self.create_blob_message(data, meta={"filename": "echo.txt", "mime_type": "text/plain"})
        yield self.create_text_message(f"echoed: {text}")
        yield self.create_variable_message("echoed", f"echoed: {text}")
        yield self.create_variable_message("total", len(text))
        yield self.create_image_message(image_url="https://example.com/echo.png")
        yield self.create_json_message(json={"echoed": text})
        # `user` is taken from 0.8.0 on, the version this plugin installs
        self.session.app.workflow.invoke(app_id="app", inputs={"text": text}, user="someone")
        # what the check cannot see through, or that is not the SDK's helper
        parts = [text]
        options: dict[str, Any] = {}
        yield self.create_text_message(*parts)
        yield self.create_json_message({"echoed": text}, **options)
        yield self.create_link_message(url="https://example.com", title="Echo")
        yield self.create_text_message(self.session.model.summary.invoke(text=text, instruction="one line"))
        storage = self.session.storage
        yield self.create_text_message(storage.get("last").decode())
        for storage in (self.session.storage, {}):  # bound to something else too: not judged
            storage.get("last", None)
        try:
            # `files` was taken up to 0.0.1b15: a fallback for an old release, one release takes it
            self.session.app.workflow.invoke(app_id="app", inputs={}, response_mode="blocking", files=[])
        except TypeError:
            self.session.app.workflow.invoke(app_id="app", inputs={}, response_mode="blocking")
