from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        key = tool_parameters.get("api_key") or ""
        secret = tool_parameters.get("password") or ""
        text = tool_parameters["text"] + tool_parameters.get("mode", "")
        yield self.create_variable_message("echoed", text + str(len(key + secret)))
