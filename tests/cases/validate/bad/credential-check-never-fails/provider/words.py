import logging
from typing import Any

import requests
from dify_plugin import ToolProvider

logger = logging.getLogger(__name__)


class WordsProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        """Tries the key on a known word."""
        try:
            reply = requests.get(
                "https://words.example.com/define/test",
                headers={"Authorization": f"Bearer {credentials['api_key']}"},
                timeout=10,
            )
            reply.raise_for_status()
        except Exception as error:
            logger.warning("the key did not work: %s", error)
