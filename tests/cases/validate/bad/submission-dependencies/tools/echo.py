from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters: dict):
        yield self.create_text_message(str(tool_parameters["text"]))
        _ = tool_parameters.get("mode")  # declared in the YAML, so read
