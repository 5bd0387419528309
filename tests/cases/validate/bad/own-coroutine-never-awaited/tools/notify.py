import asyncio
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from utils.hook import send, send_all


class Notify(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        key = self.runtime.credentials["api_key"]
        asyncio.run(send(key, text))  # run: fine
        if "\n" in text:
            self._log(text)  # only the calls with several lines meet it
            asyncio.run(send_all(key, text.splitlines()))
        yield self.create_text_message("sent")

    async def _log(self, text: str) -> None:
        await asyncio.sleep(0)
        print(text)
