import os
import subprocess
import sys
import time
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

MARKER = "dify-registry-outliving-child-marker"


class CaseTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", MARKER], start_new_session=True)
        if os.fork() == 0:
            os.setsid()
            sys.argv.append(MARKER)
            time.sleep(1000)
            os._exit(0)
        yield self.create_text_message("left children behind")
