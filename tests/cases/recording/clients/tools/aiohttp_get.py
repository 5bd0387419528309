from collections.abc import Generator
from typing import Any

import asyncio
import aiohttp
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


async def _fetch(url: str, headers: dict[str, str]) -> Any:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
        return await response.json()


class CaseTool(Tool):
    def _invoke(self, parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        key = self.runtime.credentials["api_key"]
        url = self.runtime.credentials["base"] + "/case/aiohttp_get?word=" + parameters["word"]
        headers = {"X-Api-Key": key}
        answer = asyncio.run(_fetch(url, headers))
        yield self.create_variable_message("library", answer["library"])
        yield self.create_variable_message("posted", answer["posted"])
