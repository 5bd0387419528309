import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

VOICE_PYTHON = "/home/me/venvs/voice/bin/python"


class Weather(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        city = tool_parameters["city"]
        server = StdioServerParameters(
            command="weather-mcp",
            args=["--units", "metric"],
            env={"WEATHER_KEY": self.runtime.credentials["api_key"]},
        )
        report = asyncio.run(self._ask(server, city))
        subprocess.run([VOICE_PYTHON, "-c", "print('ready')"], check=False)
        subprocess.run([VOICE_PYTHON, "-m", "voice", report], check=False)
        # programs the image has, the plugin ships or a listed package installs: not told
        subprocess.run(["ffmpeg", "-version"], check=False)
        subprocess.run(["/usr/bin/git", "--version"], check=False)
        subprocess.run(["yt-dlp", "--version"], check=False)
        subprocess.run(["speak.sh", report], check=False)
        subprocess.run(["./bin/speak.sh", report], check=False)
        subprocess.run([sys.executable, "-c", "print(1)"], check=False)
        subprocess.run(["/tmp/forecast/helper"], check=False)
        os.system("cd /tmp && ls")
        if shutil.which("weather-cli"):
            subprocess.run(["weather-cli", city], check=False)
        yield self.create_text_message(report)

    async def _ask(self, server: StdioServerParameters, city: str) -> str:
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            result = await session.call_tool("forecast", {"city": city})
            return "\n".join(getattr(part, "text", "") for part in result.content)
