import re
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_NOTE_BYTES = 64 * 1024


class NoteTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        action = tool_parameters.get("action") or "read"
        name = str(tool_parameters.get("name") or "")
        if not NAME.fullmatch(name):
            raise ValueError("A note name has 1 to 64 letters, digits, dashes or underscores.")
        key = f"note:{name}"
        storage = self.session.storage
        content = storage.get(key).decode() if storage.exist(key) else ""
        if action == "append":
            line = " ".join(str(tool_parameters.get("text") or "").split())
            if not line:
                raise ValueError("Give the text to append.")
            content = f"{content}\n{line}" if content else line
            if len(content.encode()) > MAX_NOTE_BYTES:
                raise ValueError(f"A note holds at most {MAX_NOTE_BYTES} bytes; clear it first.")
            storage.set(key, content.encode())
        elif action == "clear":
            if storage.exist(key):
                storage.delete(key)
            content = ""
        elif action != "read":
            raise ValueError(f"Unknown action {action!r}; use append, read or clear.")
        lines = len(content.splitlines())
        yield self.create_variable_message("content", content)
        yield self.create_variable_message("lines", lines)
        count = "1 line" if lines == 1 else f"{lines} lines"
        yield self.create_text_message(f"Note {name} ({count})" + (f":\n{content}" if content else " is empty"))
