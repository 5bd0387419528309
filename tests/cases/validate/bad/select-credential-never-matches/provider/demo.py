from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError

from tools.session import headers_for


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        if not headers_for(credentials):
            raise ToolProviderCredentialValidationError("no sign-in method")
