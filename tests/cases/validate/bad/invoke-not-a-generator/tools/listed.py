from dify_plugin import Tool


class Listed(Tool):
    # A list of messages, or a helper's generator, is what `yield from` takes: not told.
    def _invoke(self, tool_parameters):
        if tool_parameters.get("mode") == "upper":
            return self._shout(tool_parameters["text"])
        return [self.create_text_message(tool_parameters["text"])]

    def _shout(self, text):
        yield self.create_text_message(text.upper())
