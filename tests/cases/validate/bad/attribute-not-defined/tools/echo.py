from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from utils.image import ImageHelper, Labelled, Lenient


class Echo(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        pil = ImageHelper(text.encode())
        first = pil.getpixel(0, 0)  # the class defines get_pixel: fails on every call
        size = pil.size + pil.scale + pil.get_pixel(0, 0)
        other = Lenient()
        if hasattr(pil, "mode"):
            size += pil.mode  # probed: the code expects it may be missing
        labelled = Labelled()
        yield self.create_text_message(f"{first} {size} {other.anything} {labelled.describe()} {self.helper()} {self._answer(text, "plain")}")

    def helper(self) -> str:
        return self.runtime.user_id  # the SDK's Tool has runtime; what runtime holds is not judged

    def failure(self) -> ToolInvokeMessage:
        # no release of the SDK's Tool has provider or create_error_message: fails on every call
        return self.create_error_message(self.provider.name)

    def _answer(self, text: str, fmt: str) -> str:
        if fmt == "json":
            return self._as_json(text)  # the only caller asks for "plain": never runs
        elif fmt == "plain":
            return self._as_plain(text)
        return text

    def _as_json(self, text: str) -> str:
        return self.dumps(text)  # missing, but nothing reaches this line: not reported

    def _as_plain(self, text: str) -> str:
        return self.plain_text(text) + self._shout(text, text.isupper())  # missing, reached on every call

    def _unused(self) -> str:
        return self.nowhere  # missing, but no code calls this helper: not reported

    def _shout(self, text: str, loud: bool) -> str:
        if loud:
            return self.upper_case(text)  # missing, but only loud calls meet it: a warning
        return text
