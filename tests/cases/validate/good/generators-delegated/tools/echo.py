import functools
from collections.abc import Callable, Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def cached(function: Callable[..., Any]) -> Callable[..., Any]:
    return functools.lru_cache(maxsize=4)(function)


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        yield from self._answer(text)
        yield self._summary(text)  # a plain method returning one message
        yield self._labelled(text)  # decorated: what it returns is not judged
        batches = list(self._batches(text))  # a generator consumed, not yielded
        yield self.create_json_message({"batches": batches})

    def _answer(self, text: str) -> Generator[ToolInvokeMessage]:
        yield self.create_text_message(text)

    def _summary(self, text: str) -> ToolInvokeMessage:
        return self.create_text_message(f"{len(text)} characters")

    @cached
    def _labelled(self, text: str) -> ToolInvokeMessage:
        return self.create_text_message(f"label: {text}")

    def _batches(self, text: str) -> Generator[str]:
        yield from (text[i : i + 4] for i in range(0, len(text), 4))
