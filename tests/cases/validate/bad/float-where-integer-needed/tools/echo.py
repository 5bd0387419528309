import random
from collections.abc import Generator
from random import randrange
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        low = float(len(text))  # the plugin's own conversion
        high = float(len(text) + 10)
        picked = random.randint(low, high)  # fails on Python 3.12 whatever the text
        step = randrange(0, len(text) / 2 + 1)  # `/` always gives a float
        whole = random.randint(int(low), int(high))  # converted back: fine
        count = 0
        for _ in range(int(high)):
            count += 1
        yield self.create_text_message(f"{picked} {step} {whole} {count}")

    def spread(self, width: float) -> list[int]:
        return list(range(width))  # a parameter: its type is the caller's, not judged
