import logging

import httpx
import requests as rq
from requests import post

from dify_plugin import Tool

logger = logging.getLogger(__name__)


class Echo(Tool):
    def _invoke(self, tool_parameters: dict):
        api_key = self.runtime.credentials["api_key"]
        logger.info("calling the service with %s", api_key)
        reply = rq.get("https://api.acme.example/echo", params=tool_parameters)
        post("https://api.acme.example/log", json={"n": 1})
        httpx.get("https://api.acme.example/slow", timeout=None)
        try:
            reply.raise_for_status()
        except:
            pass
        if reply.status_code == 401:
            raise ValueError(f"key {api_key} was refused")
        yield self.create_text_message(reply.text)
