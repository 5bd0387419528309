from typing import Any

from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError

from tools.notes import FindNotes


class NotesProvider(ToolProvider):
    def _validate_credentials(self, credentials: dict[str, Any]) -> None:
        if not credentials.get("api_key"):
            return
        query = "test"
        try:
            tool = FindNotes.from_credentials(credentials)
            for _ in tool.invoke(tool_parameters={"query": query}):
                pass
        except Exception as error:
            raise ToolProviderCredentialValidationError(str(error)) from error
