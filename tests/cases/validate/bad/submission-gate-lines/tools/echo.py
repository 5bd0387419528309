from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters: dict):
        yield self.create_text_message(str(tool_parameters["text"]))
