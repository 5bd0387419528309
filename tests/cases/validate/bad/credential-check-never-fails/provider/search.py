from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError

from tools.search import Search


class SearchProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        try:
            for _ in Search.from_credentials(credentials).invoke(tool_parameters={"query": "test"}):
                pass
        except Exception as error:
            raise ToolProviderCredentialValidationError(str(error)) from error
