from typing import Any

from dify_plugin import ToolProvider


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        if not credentials.get("api_key") or not credentials.get("environment"):
            raise ValueError("missing")
