from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        text = tool_parameters["text"]
        if tool_parameters.get("upper"):
            text = text.upper()
        if tool_parameters.get("twice"):
            text = text + text
        if tool_parameters.get("trim"):
            text = text.strip()
        yield self.create_variable_message("echoed", f"{tool_parameters.get('style', '')}{text}")
