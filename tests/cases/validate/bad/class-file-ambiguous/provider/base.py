from typing import Any

from dify_plugin import ToolProvider


class KeyedProvider(ToolProvider):
    """Shared checks of a key; a ToolProvider subclass itself."""

    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        if not credentials.get("api_key"):
            raise ValueError("An API key is required.")
