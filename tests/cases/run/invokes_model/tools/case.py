from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from dify_plugin.entities.model.llm import LLMModelConfig
from dify_plugin.entities.model.message import UserPromptMessage


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        answer = self.session.model.llm.invoke(
            model_config=LLMModelConfig(**tool_parameters["model"]),
            prompt_messages=[UserPromptMessage(content=tool_parameters["question"])],
            stream=False,
        )
        yield self.create_text_message(str(answer.message.content))
