from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # base_url is optional: a user who leaves it blank can never save the credentials.
        if not credentials.get("api_key") or not credentials.get("base_url"):
            raise ToolProviderCredentialValidationError("Enter the API key and the base URL.")
        if int(credentials["timeout"]) <= 0:  # declared with a default: Dify fills it in
            raise ToolProviderCredentialValidationError("The timeout must be positive.")
