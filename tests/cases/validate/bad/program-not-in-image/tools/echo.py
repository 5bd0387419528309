import os
import shutil
import subprocess

from dify_plugin import Tool

from tools.convert import render


class Echo(Tool):
    def _invoke(self, tool_parameters):
        if not shutil.which("pandoc"):
            yield self.create_text_message("pandoc is missing")
            return
        command = ["npx", "some-cli", "--json"]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        subprocess.run(["ffmpeg", "-version"], check=False)
        os.system("/usr/bin/npx other-cli")
        yield self.create_text_message(result.stdout + render(b"") + str(len(tool_parameters)))
