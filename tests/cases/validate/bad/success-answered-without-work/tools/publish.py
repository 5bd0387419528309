from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.queue_client import Broker


class Publish(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        queue = str(tool_parameters["queue"])
        topic = tool_parameters.get("topic")
        message = str(tool_parameters["message"])
        broker = Broker("localhost")
        if queue and topic:
            # topic is optional: left empty, nothing is published
            broker.publish_message(queue, topic, message)
        yield self.create_text_message(f"Message sent to {queue}")
