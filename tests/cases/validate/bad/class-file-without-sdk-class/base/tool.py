from dify_plugin import Tool


class BaseTool(Tool):
    def _invoke(self, tool_parameters):
        yield self.create_text_message(tool_parameters["text"])
        yield self.create_variable_message(self.output, tool_parameters["mode"])
