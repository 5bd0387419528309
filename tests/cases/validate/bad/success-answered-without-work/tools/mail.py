from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.queue_client import send_mail


class Mail(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        recipient = str(tool_parameters["recipient"])
        refused = send_mail("localhost", recipient, str(tool_parameters["message"]))
        if refused:
            yield self.create_text_message(f"Refused: {', '.join(refused)}")
        else:
            # send_mail answers {} when sendmail raised, too
            text = f"Mail sent successfully to {recipient}"
            yield self.create_text_message(text)
