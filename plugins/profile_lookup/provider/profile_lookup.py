from typing import Any

from dify_plugin import ToolProvider


class ProfileLookupProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # The directory ships with the plugin, so there is nothing to check.
        return None
