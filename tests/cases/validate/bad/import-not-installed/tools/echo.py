import json
import sys
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import httpx  # comes with dify_plugin
import urllib3  # comes with requests
import yaml  # comes with dify_plugin (pyyaml)
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage
from PIL import Image  # pillow is not listed: the module cannot load

from utils.db import connect

try:
    import orjson  # optional: the code falls back
except ImportError:
    orjson = None

if TYPE_CHECKING:
    import numpy


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = json.dumps({"text": tool_parameters["text"], "python": sys.version})
        size = Image.new("RGB", (1, 1)).size
        yield self.create_text_message(f"{text} {size} {httpx} {urllib3} {yaml} {orjson} {connect}")
        _ = tool_parameters.get("mode")  # declared in the YAML, so read
