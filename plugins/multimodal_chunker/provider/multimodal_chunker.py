from typing import Any

from dify_plugin import ToolProvider


class MultimodalChunkerProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # Images are uploaded to the Dify instance that runs the plugin: no account to check.
        return None
