from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        if not credentials.get("api_key"):
            raise ToolProviderCredentialValidationError("Enter the API key.")
        if int(credentials["timeout"]) <= 0:  # declared with a default: Dify fills it in
            raise ToolProviderCredentialValidationError("The timeout must be positive.")
