from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        token = self.runtime.credentials["token"]
        yield self.create_text_message(f"{token}: {tool_parameters['text']}")
