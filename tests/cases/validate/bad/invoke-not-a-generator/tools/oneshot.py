from dify_plugin import Tool


class OneShot(Tool):
    def _invoke(self, tool_parameters):
        text = tool_parameters["text"]
        if not text:
            return self.create_text_message("Please give a text")
        try:
            return self.create_text_message(text + tool_parameters.get("mode", ""))
        except Exception as error:
            return self.create_text_message(f"failed: {error}")
