from typing import Any

import requests
from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError

from tools.catalogue import Catalogue


class BookFinderProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        try:
            Catalogue(credentials).get("/v1/account")
        except requests.RequestException as problem:
            raise ToolProviderCredentialValidationError(f"the catalogue refused the key: {problem}") from problem
