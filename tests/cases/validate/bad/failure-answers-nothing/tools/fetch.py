import json
import logging
import urllib.parse
import urllib.request
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

API = "https://api.example.com/search"
logger = logging.getLogger(__name__)


class Fetch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        query = str(tool_parameters["query"])
        try:
            query = query.encode("ascii").decode()
        except UnicodeError:
            pass  # the messages come after this try: not judged
        try:
            url = f"{API}?q={urllib.parse.quote(query)}"
            with urllib.request.urlopen(url, timeout=10) as resp:
                data = json.loads(resp.read())
            yield self.create_json_message(data)
        except OSError as e:
            logger.error("search failed: %s", e)  # the call ends with no message and no error
        except ValueError as e:
            yield self.create_text_message(f"The answer is not JSON: {e}")
