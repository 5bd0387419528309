from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

DEBUG = False
if DEBUG:  # fine: a module-level switch
    print("debugging")


def review(text: str) -> dict[str, Any]:
    return {"suggestion": text.strip().capitalize(), "labels": ["ok"] if text else []}


class Moderate(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        result = review(tool_parameters["text"])
        suggestion = ""
        if suggestion:  # always false: the field was meant
            suggestion = result["suggestion"]
        labels = None
        if labels is not None and result["labels"]:  # always false too
            labels = list(result["labels"])
        count = 0
        count += len(result["labels"])
        if count:  # fine: changed in between
            yield self.create_text_message(f"{count} labels")
        yield self.create_variable_message("suggestion", suggestion)
        yield self.create_variable_message("labels", labels or [])
