import os
from collections.abc import Generator
from os import getenv
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

# Read when the module loads: nobody can set it for the plugin's process.
SEARCH_ENDPOINT = os.environ.get("ACME_SEARCH_ENDPOINT")
TEMP_FOLDER = os.getenv("TMPDIR")  # every process has it: not judged
LOG_LEVEL = os.getenv("ACME_LOG_LEVEL")  # a knob with a fine absence: not judged


class Fetch(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        query = str(tool_parameters["query"])
        session = os.environ["ACME_SESSION_COOKIE"]  # KeyError for everyone but the author
        region = getenv("ACME_REGION_HOST", "eu.acme.example")  # a default: not judged
        key = self.runtime.credentials.get("api_key") or os.getenv("ACME_API_KEY")  # a fallback
        os.environ["ACME_API_KEY"] = key  # shared by every call of the process
        yield self.create_text_message(f"{query} {session} {region} {SEARCH_ENDPOINT} {TEMP_FOLDER} {LOG_LEVEL}")
