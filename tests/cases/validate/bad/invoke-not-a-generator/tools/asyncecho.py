from dify_plugin import Tool


class AsyncEcho(Tool):
    async def _invoke(self, tool_parameters):
        yield self.create_text_message(tool_parameters["text"] + tool_parameters.get("mode", ""))
