from typing import Any

from dify_plugin import ToolProvider


class LineSorterProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # No account: the tool works on its inputs alone.
        return None
