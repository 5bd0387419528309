import ctypes
import os
import subprocess
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from tools.worker import worker_identity

MARKER = "dify-registry-shared-worker-marker"
SHM_KEY = 0x5EED
QUEUE = b"/dify-registry-left-queue"
O_RDWR, O_CREAT = 2, 0o100
WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
# module state: a fresh child imports this module anew, so the second example sees it empty
WRITTEN: list[str] = []


class StateTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage]:
        libc = ctypes.CDLL(None, use_errno=True)
        yield self.create_variable_message("worker", worker_identity())
        if tool_parameters["step"] == "write":
            WRITTEN.append("write")
            os.environ["LEFT_BY_WRITE"] = "1"
            self.session.storage.set("secret", b"left by write")
            for folder in WRITABLE:
                Path(folder, "leftover").write_text("x")
            Path(os.environ["HOME"], "leftover").write_text("x")
            Path("leftover").write_text("x")
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", MARKER], start_new_session=True)
            libc.shmget(SHM_KEY, 4096, 0o1600)
            if libc.mq_open(QUEUE, O_CREAT | O_RDWR, 0o600, None) == -1:
                raise OSError(ctypes.get_errno(), "mq_open")
            yield self.create_text_message("wrote")
            return
        seen = []
        if self.session.storage.exist("secret"):
            seen.append("storage")
        seen.extend(folder for folder in WRITABLE if Path(folder, "leftover").exists())
        if Path(os.environ["HOME"], "leftover").exists() or Path("leftover").exists():
            seen.append("working folder")
        others = [p.name for p in Path("/proc").iterdir() if p.name.isdigit() and int(p.name) not in (1, os.getpid())]
        if others:
            seen.append("processes " + " ".join(sorted(others)))
        if libc.shmget(SHM_KEY, 0, 0) != -1:
            seen.append("shared memory")
        if libc.mq_open(QUEUE, O_RDWR) != -1:
            seen.append("message queue")
        if WRITTEN or "LEFT_BY_WRITE" in os.environ:
            seen.append("module state")
        yield self.create_text_message("left: " + ", ".join(seen) if seen else "clean")
