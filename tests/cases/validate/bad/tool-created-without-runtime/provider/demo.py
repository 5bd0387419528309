from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError

from tools.echo import Echo


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        try:
            tool = Echo()
            for _ in Echo().invoke({}):
                tool = None
        except Exception as e:
            raise ToolProviderCredentialValidationError(str(e)) from e

    def spare(self, runtime: Any, session: Any, again: bool) -> Echo | None:
        if again:
            return Echo(runtime)
        return Echo(runtime, session=session)
