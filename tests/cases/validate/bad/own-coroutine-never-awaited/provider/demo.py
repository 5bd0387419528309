from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError

from utils.hook import probe


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        try:
            probe(credentials["api_key"])  # makes a coroutine and drops it: every key is accepted
        except Exception as e:
            raise ToolProviderCredentialValidationError(str(e)) from e
