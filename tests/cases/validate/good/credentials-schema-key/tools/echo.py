from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        key = self.runtime.credentials["api_key"]
        yield self.create_text_message(f"{len(key)} {len(tool_parameters)}")
        yield self.create_variable_message("echoed", f"{len(key)}")
