from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # project and region are optional: a user who leaves one blank can never save.
        if not all([credentials.get("api_key"), credentials.get("project"), credentials.get("region")]):
            raise ToolProviderCredentialValidationError("Enter the API key, the project and the region.")
