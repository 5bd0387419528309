from typing import Any

import httpx
from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError

from tools.rates import client


class RateConverterProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        try:
            with client(credentials) as rates:
                rates.get("/v1/latest", params={"base": "EUR"}).raise_for_status()
        except httpx.HTTPError as problem:
            raise ToolProviderCredentialValidationError(f"the rates service refused the token: {problem}") from problem
