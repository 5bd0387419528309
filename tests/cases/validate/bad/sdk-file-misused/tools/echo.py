from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage
from dify_plugin.file.file import File


def size_of(upload: File) -> int:
    # a name annotated with the SDK's File
    print(upload.name)
    return len(upload.blob())


def read_any(upload: File) -> bytes:
    # a defensive probe: always False, but another branch does the work (a warning)
    if hasattr(upload, "read"):
        upload.seek(0)  # another attribute the File lacks, in the branch that never runs: not told
        return upload.read()
    return upload.blob


def name_of(value: File) -> str:
    # the code expects other types as well: not certainly a File, no finding
    if isinstance(value, str):
        return value.split("/")[-1]
    return value.filename or ""


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        template = tool_parameters.get("template")
        if not hasattr(template, "path"):
            yield self.create_text_message("no template file provided")
            return
        with open(template.path) as handle:
            text = handle.read()
        for attachment in tool_parameters.get("attachments") or []:
            text += attachment.blob().decode()
        # used as the SDK means: no finding
        text += template.filename or ""
        text += str(len(template.blob))
        other = {"path": "x"}
        text += other["path"]
        yield self.create_json_message({"echoed": text + tool_parameters["text"]})
        _ = tool_parameters.get("mode")  # declared in the YAML, so read
        attachments = tool_parameters["attachments"]
        first = attachments.url  # a files parameter is a list of File: error
        first += attachments[0].url + str(len(attachments))  # used as a list: no finding
        first += template[0]  # a file parameter is one File: error
        yield self.create_text_message(first)
        with open(template.url, "rb") as handle:  # a URL is no path: error
            yield self.create_blob_message(handle.read())
