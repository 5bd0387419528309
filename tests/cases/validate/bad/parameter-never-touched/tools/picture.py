from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Picture(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        prompt = tool_parameters["prompt"]
        size = tool_parameters.get("size", "square")
        if size and "--size" not in prompt:
            prompt = f"{prompt} --size 1024x1024"
        reply = requests.post("https://pictures.example.com/make", json={"prompt": prompt}, timeout=60)
        yield self.create_image_message(reply.json()["url"])
