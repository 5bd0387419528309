import json
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

CATALOG = {"users": ["id", "name"], "orders": ["id", "user_id", "total"]}


def columns_of(table: str) -> list[str]:
    return CATALOG[table]  # KeyError for an unknown table


class Describe(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        names = [name.strip() for name in str(tool_parameters["tables"]).split(",")]
        described: dict[str, Any] = {}
        for name in names:
            try:
                info = {"table": name, "columns": columns_of(name)}
                described[name] = info
            except Exception as error:
                # the first unknown table: UnboundLocalError; a later one writes into the
                # previous table's dict
                info["error"] = str(error)
        yield self.create_text_message(json.dumps(described))
        yield self.create_text_message(self._first(names) + self._kept(names) + self._narrow(names))
        yield self.create_text_message(self._rebound(names) + self._guarded(names) + self._plain(names))
        yield self.create_text_message(self._closed(names) + self._made(names))

    def _first(self, names: list[str]) -> str:
        try:
            columns = columns_of(names[0])
            text = ",".join(columns)
        except Exception:
            return f"no columns ({text})"  # text is bound only after columns_of, which failed
        return text

    def _kept(self, names: list[str]) -> str:
        text = ""
        try:
            text = ",".join(columns_of(names[0]))
        except Exception:
            return f"no columns ({text})"  # bound before the try
        return text

    def _narrow(self, names: list[str]) -> str:
        try:
            text = ",".join(names)
            columns = columns_of(text)
        except KeyError:
            return f"unknown table {text}"  # which statement raised KeyError is not visible
        return ",".join(columns)

    def _rebound(self, names: list[str]) -> str:
        try:
            text = ",".join(columns_of(names[0]))
        except Exception:
            text = ""
            return f"no columns ({text})"  # the handler bound it first
        return text

    def _guarded(self, names: list[str]) -> str:
        try:
            text = ",".join(columns_of(names[0]))
        except Exception:
            try:
                return f"no columns ({text})"
            except NameError:  # the handler's own try catches the unbound read
                return "no columns"
        return text

    def _plain(self, names: list[str]) -> str:
        try:
            first = names[0].strip().lower()
            text = ",".join(columns_of(first))
        except Exception:
            return f"no columns for {first}"  # only text methods ran before first is bound
        return text

    def _closed(self, names: list[str]) -> str:
        try:
            handle = open(names[0], encoding="utf-8")
            return handle.read()
        finally:
            handle.close()  # open failed: UnboundLocalError hides its error

    def _made(self, names: list[str]) -> str:
        try:
            buffer = Buffer()
            buffer.add(",".join(columns_of(names[0])))
            return buffer.text
        finally:
            buffer.clear()  # only a class made without arguments ran before the binding


class Buffer:
    def __init__(self) -> None:
        self.text = ""

    def add(self, text: str) -> None:
        self.text += text

    def clear(self) -> None:
        self.text = ""
