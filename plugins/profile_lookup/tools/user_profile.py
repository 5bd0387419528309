from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .directory import find_person


class UserProfileTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        person = find_person(str(tool_parameters.get("name") or ""))
        # Every variable declared in output_schema is yielded: a helper call that is not
        # yielded builds a message that never reaches the workflow.
        yield self.create_variable_message("name", person["name"])
        yield self.create_variable_message("age", person["age"])
        yield self.create_variable_message("profile", person["profile"])
        yield self.create_text_message(f"User {person['name']} processed successfully")
