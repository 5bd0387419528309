import logging

import httpx
import requests

from dify_plugin import ToolProvider

logger = logging.getLogger(__name__)


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict) -> None:
        options = {"timeout": 10}
        requests.get("https://api.acme.example/me", timeout=10)
        requests.get("https://api.acme.example/me", **options)
        httpx.get("https://api.acme.example/me")
        logger.info("used %d tokens, token url %s", credentials.get("max_tokens", 0), "https://x")
        logger.debug("key of %d characters", len(credentials["api_key"]))
        try:
            int("x")
        except Exception as error:
            logger.warning("ignored: %s", error)
        try:
            int("y")
        except:
            raise
