from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError

from tools.links import CheckLinks


class LinksProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        try:
            tool = CheckLinks.from_credentials(credentials)
            for _ in tool.invoke(tool_parameters={"query": "https://example.com"}):
                pass
        except Exception as error:
            raise ToolProviderCredentialValidationError(str(error)) from error
