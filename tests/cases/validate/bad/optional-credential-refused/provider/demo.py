from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # project and region are optional: a user who leaves one blank can never save.
        if not all([credentials.get("api_key"), credentials.get("project"), credentials.get("region")]):
            raise ToolProviderCredentialValidationError("Enter the API key, the project and the region.")
        # endpoint is optional too: the loop refuses it blank, as it does the required api_key.
        needed = ["api_key", "endpoint"]
        for name in needed:
            if name not in credentials or not credentials[name]:
                raise ToolProviderCredentialValidationError(f"{name} is required.")
