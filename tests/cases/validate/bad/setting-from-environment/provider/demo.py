import os
from typing import Any

from dify_plugin import ToolProvider


class DemoProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        token = credentials["api_key"]
        os.environ.setdefault("ACME_TOKEN", token)  # the first workspace's key stays
