from typing import Any

from dify_plugin import ToolProvider


class ScratchpadProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # Notes live in Dify's own plugin storage: there is no account to check.
        return None
