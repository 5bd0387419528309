import os
import shutil
import subprocess

from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        if not shutil.which("npm"):
            yield self.create_text_message("pandoc is missing")
            yield self.create_variable_message("echoed", "pandoc is missing")
            return
        command = ["npx", "some-cli", "--json"]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        subprocess.run(["ffmpeg", "-version"], check=False)
        os.system("/usr/bin/npx other-cli")
        yield self.create_text_message(result.stdout + str(len(tool_parameters)))
