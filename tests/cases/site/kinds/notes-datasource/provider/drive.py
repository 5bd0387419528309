from collections.abc import Mapping
from typing import Any

from dify_plugin.interfaces.datasource import DatasourceProvider


class DriveProvider(DatasourceProvider):
    def _validate_credentials(self, credentials: Mapping[str, Any]) -> None:
        if not credentials.get("token"):
            raise ValueError("a token is required")
