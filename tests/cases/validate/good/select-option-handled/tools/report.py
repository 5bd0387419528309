from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def drawn(shape: str) -> str:
    match shape:
        case "circle":
            return "()"
        case "square":
            return "[]"
        case _:
            return "/\\"


def label(kind: str) -> str:
    if kind == "other":  # another caller hands it "other": not a value of the select only
        return "?"
    return "!"


class ReportTool(Tool):
    @staticmethod
    def to_metres(unit: str, distance: float) -> float:
        if unit == "km":
            return distance * 1000
        if unit == "m":
            return distance
        return distance * 1609.344  # what follows the tests is the default: miles

    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        sort = tool_parameters.get("sort")
        if sort == "newest":
            order = "desc"
        elif sort in ("oldest", "Oldest", "old"):  # spare members of the list do no harm
            order = "asc"
        else:
            order = ""
        unit = tool_parameters.get("unit") or "km"
        metres = self.to_metres(unit, float(tool_parameters.get("distance") or 0))
        lang = tool_parameters.get("lang")
        if lang == "en":
            greeting = "Hello"
        elif lang == "de":
            greeting = "Hallo"
        url = f"https://example.com/greet?lang={lang}"  # the value goes on: another may handle it
        yield self.create_link_message(url)
        yield self.create_text_message(greeting)
        case = tool_parameters.get("case") or ""
        if case.lower() == "upper":  # lowered first: the value is no longer the option's
            cased = order.upper()
        elif case.lower() == "lower":
            cased = order.lower()
        tone = tool_parameters.get("tone")
        prefix = ""
        if tone == "formal":
            prefix = "Dear reader, "
        elif tone == "casual":
            prefix = "Hey, "
        shape = tool_parameters.get("shape") or "circle"
        speed = tool_parameters.get("speed") or "auto"
        if speed == "auto":
            speed = "fast"
        yield self.create_text_message(f"{prefix}{order} {metres} {drawn(shape)} {cased}")
        yield self.create_text_message(f"{label(lang)} {label('other')}")
        if speed == "fast" or speed == "FAST":  # another spelling of a handled option: a model may send it
            yield self.create_text_message("fast")
        if not tool_parameters.get("view"):
            tool_parameters["view"] = "auto"  # a value the options do not hold, stored under the key
        if tool_parameters.get("view") == "auto":
            yield self.create_text_message("auto")
        depth = tool_parameters.get("depth")
        if depth == "deep":  # one special case, not a dispatch over the options
            yield self.create_text_message("deep")
