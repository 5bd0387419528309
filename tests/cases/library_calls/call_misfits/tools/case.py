from collections.abc import Generator
from typing import Any

import httpx
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage
from httpx import get


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        if tool_parameters.get("follow"):
            # a keyword of another HTTP library: httpx calls it follow_redirects (a warning: a branch)
            page = get(tool_parameters["url"], timeout=5, allow_redirects=True)
            yield self.create_text_message(page.text)
            return
        client = httpx.Client(
            timeout=5,
            verify_ssl=False,  # not a parameter of httpx.Client in any release: TypeError on every call
        )
        # keywords the installed httpx takes: silent
        page = client.get(tool_parameters["url"], follow_redirects=False)
        if page.status_code == 301:
            # httpx.get takes one positional argument, the URL: a warning (a branch)
            page = httpx.get(tool_parameters["url"], {"page": 2})
        if page.status_code == 303:
            # a name httpx does not have (requests' exception): a warning (a branch)
            raise httpx.ConnectionError("moved")
        if page.status_code == 302:
            # the URL left out: a warning (a branch)
            page = httpx.get(params={"page": 2})
        # fits: silent
        yield self.create_text_message(httpx.Client(timeout=3, verify=True).base_url.host + page.text)
        yield self.create_text_message(httpx.get(tool_parameters["url"], **{"timeout": 3}).text)
