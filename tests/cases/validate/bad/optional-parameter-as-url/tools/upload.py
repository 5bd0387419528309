import re
from collections.abc import Generator
from typing import Any

import requests
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def send(api_url: str, text: str) -> str:
    response = requests.post(api_url, data=text, timeout=30)  # told: endpoint may be empty
    return response.text


def store(base: str, text: str) -> str:
    response = requests.post(f"{base}/store", data=text, timeout=30)  # told: backup may be empty
    return response.text


def render(url: str, chart: str) -> str:
    return requests.post(url, data=chart, timeout=30).text  # told: reached through a lambda


class Upload(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = tool_parameters["text"]
        endpoint = tool_parameters.get("endpoint", "")
        yield self.create_text_message(send(endpoint, text))
        yield self.create_text_message(store(tool_parameters.get("backup"), text))
        yield self.create_text_message(re.sub(r"<chart>(.*?)</chart>", lambda m: render(endpoint, m.group(1)), text))
        mirror = tool_parameters.get("mirror")
        if mirror:
            requests.post(mirror, data=text, timeout=30)  # silent: tested
        try:
            requests.post(endpoint, data=text, timeout=30)  # silent: the failure is caught
        except requests.RequestException as error:
            yield self.create_text_message(f"Upload failed: {error}")
