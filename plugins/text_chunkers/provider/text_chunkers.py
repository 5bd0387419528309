from typing import Any

from dify_plugin import ToolProvider


class TextChunkersProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # Chunking runs locally on the text it is given: there is nothing to check.
        return None
