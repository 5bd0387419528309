import io
from collections.abc import Generator
from typing import Any

import httpx
import pandas as pd
from bs4 import BeautifulSoup
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

SPREADSHEETS = (".xlsx", ".xls")


class Table(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        url = tool_parameters["url"]
        with httpx.Client(http2=True, timeout=30) as client:
            data = client.get(url).content
        if url.endswith(SPREADSHEETS):
            frame = pd.read_excel(io.BytesIO(data))
        else:
            page = BeautifulSoup(data, "lxml")
            rows = [[cell.get_text() for cell in row.find_all("td")] for row in page.find_all("tr")]
            frame = pd.DataFrame(rows)
        yield self.create_text_message(frame.to_markdown())
        # Fine: the standard library's parser, the etree parser, an engine the plugin installs.
        outline = BeautifulSoup(data, "html.parser").title
        tree = pd.read_xml(io.BytesIO(data), parser="etree") if url.endswith(".xml") else frame
        buffer = io.BytesIO()
        tree.to_excel(buffer, engine="openpyxl")
        yield self.create_json_message({"title": str(outline), "rows": len(tree)})
