import logging
import smtplib
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.queue_client import send_quietly

logger = logging.getLogger(__name__)


class Relay(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        recipient = str(tool_parameters["recipient"])
        message = str(tool_parameters["message"])
        try:
            with smtplib.SMTP("localhost", 25, timeout=10) as server:
                server.sendmail("bot@example.com", [recipient], message)
        except Exception as error:
            logger.warning("relay failed: %s", error)
        yield self.create_json_message({"status": "success", "recipient": recipient})
        send_quietly("localhost", recipient, message)
        yield self.create_text_message("送信しました")
        try:
            with smtplib.SMTP("localhost", 25, timeout=10) as server:
                server.sendmail("bot@example.com", [recipient], message)
        except smtplib.SMTPException:
            logger.warning("second relay failed")  # a narrow handler: other failures reach Dify
        yield self.create_text_message("sent again")
        try:
            with smtplib.SMTP("localhost", 25, timeout=10) as server:
                server.sendmail("bot@example.com", [recipient], message)
        except Exception:
            logger.warning("third relay failed")
        yield self.create_text_message("relay attempted, it may have failed")
