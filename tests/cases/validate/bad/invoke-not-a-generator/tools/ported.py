from typing import Any

from dify_plugin import Tool


class Ported(Tool):
    # The signature of Dify's built-in tools before plugins: the SDK passes one argument.
    def _invoke(self, user_id: str, tool_parameters: dict[str, Any]):
        yield self.create_text_message(user_id + tool_parameters["text"] + tool_parameters.get("mode", ""))
