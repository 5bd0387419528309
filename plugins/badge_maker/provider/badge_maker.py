from typing import Any

from dify_plugin import ToolProvider


class BadgeMakerProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # Badges are drawn locally: there is no account to check.
        return None
