import logging
from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

logger = logging.getLogger(__name__)


class Post(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = tool_parameters["text"]
        webhook = tool_parameters["webhook"]
        try:
            requests.get(webhook, timeout=30)  # silent: a read, not a send
        except requests.RequestException:
            pass
        try:
            requests.post(webhook, json={"text": text}, timeout=30)  # told
        except Exception as error:
            logger.warning("post failed: %s", error)
        yield self.create_text_message("Posted.")
        try:
            requests.post(webhook, json={"text": text, "copy": True}, timeout=30)  # silent: answered
        except requests.RequestException as error:
            yield self.create_text_message(f"Copy failed: {error}")
            return
        yield self.create_text_message("Copied.")
        try:
            reply = requests.post(webhook, json={"text": text, "echo": True}, timeout=30)
        except requests.RequestException:
            pass
        yield self.create_text_message(reply.text)  # silent: a failure raises UnboundLocalError here
