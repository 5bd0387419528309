import binascii
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.helpers import *  # noqa: F403  (unknown names of a module with a star import are not told)

try:
    from yarl import URL
except ImportError:  # an optional dependency: bound on both paths
    URL = None

if TYPE_CHECKING:
    from collections.abc import Iterable


class Echo(Tool):
    prefix = "echo"
    names = [prefix + str(i) for i in range(2)]  # a class body's name, read in its own scope

    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        text = str(tool_parameters["text"])
        try:
            shown = text.encode().hex()
        except (binascii.Error, ValueError):
            shown = text
        try:
            extra = later_defined()  # a module function defined after the class: bound when called
        except NameError:  # the code expects the name may be missing
            extra = ""
        yield self.create_text_message(f"{shown} {extra} {helper_value()} {len(self.names)} {__name__}")

    def count(self, values: "Iterable[int]") -> int:
        total = 0
        for value in values:
            total += value
        return total


def later_defined() -> str:
    return "later"
