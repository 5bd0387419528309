from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        text = tool_parameters["text"]
        if tool_parameters.get("upper", "false").lower() == "true":
            text = text.upper()
        twice = tool_parameters.get("twice")
        if twice in ("true", "1"):
            text = text + text
        # Good twins: a boolean tested as one, and a string parameter compared with words.
        if tool_parameters.get("trim", False):
            text = text.strip()
        if tool_parameters.get("style") == "true":
            text = f"*{text}*"
        times = tool_parameters.get("times", "1")
        if times.isdigit() and times != "1":
            text = text * int(times)
        # A name whose type the code tests may be text on that branch: not told.
        trim = tool_parameters.get("trim")
        if isinstance(trim, str) and trim.lower() == "true":
            text = text.strip()
        yield self.create_variable_message("echoed", text)
