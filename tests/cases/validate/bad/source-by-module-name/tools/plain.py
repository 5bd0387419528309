from dify_plugin import Tool


class Plain(Tool):
    def _invoke(self, tool_parameters):
        yield self.create_text_message("")
