import re
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .directory import find_person

SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class IntroducePersonTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        person = find_person(str(tool_parameters.get("name") or ""))
        sentences = [f"Meet {person['name']}, {person['age']}, from {person['profile']['location']}."]
        if tool_parameters.get("length", "full") != "short":
            sentences += [part for part in SENTENCE_END.split(person["bio"]) if part]
        # Stream variables are appended by Dify, so each chunk carries its own separator.
        for index, sentence in enumerate(sentences):
            yield self.create_stream_variable_message("introduction", sentence if index == 0 else " " + sentence)
        yield self.create_text_message(" ".join(sentences))
