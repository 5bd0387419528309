import json
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        times = int(tool_parameters["limit"])  # optional, filled by a model: absent when unset
        text = tool_parameters["text"] * times
        mode = tool_parameters["mode"]  # a form parameter: always there
        try:
            author = tool_parameters["author"]
        except KeyError:
            author = ""  # a default: the parameter is handled as optional
        try:
            latest = tool_parameters["version"]
        except KeyError as missing:
            yield self.create_text_message(f"Missing parameter: {missing}")  # and carries on
        # a form field left empty is "": json.loads("") fails; the size has a default; the scale is tested
        options = json.loads(tool_parameters["options_json"])
        size = int(tool_parameters["size"])
        scale = float(tool_parameters["scale"]) if tool_parameters.get("scale") else 1.0
        prefix = tool_parameters["prefix"] if tool_parameters.get("prefix") else ""
        if text:
            if tool_parameters["result_format"] == "json":
                yield self.create_json_message({"text": text, "latest": latest, "options": options, "size": size * scale})
        yield self.create_text_message(f"{prefix}{text} {mode} {author}")
        try:  # a default on both paths: the read's branch and the handler set the same name
            if tool_parameters["token"]:
                token = tool_parameters["token"]
            else:
                token = self.runtime.credentials.get("api_key", "")
        except KeyError:
            token = self.runtime.credentials.get("api_key", "")
        yield self.create_text_message(token)
        try:  # a form field is always passed: this fallback never runs (R078)
            region = tool_parameters["mode"]
        except KeyError:
            region = self.runtime.credentials.get("api_key", "")
        try:  # a broad handler handles other failures too: not reported
            region += str(tool_parameters["mode"])
        except Exception:
            region = ""
        yield self.create_text_message(region)
        tag = tool_parameters.get("tag").strip()  # None when left unset: AttributeError
        label = (tool_parameters.get("prefix") or "").strip()  # a fallback first: fine
        yield self.create_text_message(tag + label)
