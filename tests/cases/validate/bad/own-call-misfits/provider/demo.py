from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError

from utils.client import ping


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        try:
            ping(credentials["api_key"])  # `timeout` left out: TypeError on every check
        except Exception as e:
            raise ToolProviderCredentialValidationError(str(e)) from e
