from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError

from tools.hmac_header import check_secret


class WebhookSignerProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        # Secrets are checked for shape only: signing is local, there is no service to ask.
        try:
            check_secret(credentials)
        except ValueError as problem:
            raise ToolProviderCredentialValidationError(str(problem)) from problem
