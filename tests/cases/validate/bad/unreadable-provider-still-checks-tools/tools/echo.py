from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        yield self.create_text_message(tool_parameters["text"]
