from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        # Dify's "Complex Structure Example", as the documentation wrote it
        user_data = {"name": "Bob", "age": 30, "profile": {"interests": ["coding"], "location": "San Francisco"}}
        self.create_variable_message("name", user_data["name"])
        self.create_variable_message("age", user_data["age"])
        self.create_variable_message("profile", user_data["profile"])
        yield self.create_text_message(f"User {user_data['name']} processed successfully")
