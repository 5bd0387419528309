from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        title = tool_parameters.get("title")
        desc = tool_parameters.get("desc")
        if len(desc) > 200:
            raise ValueError("The description is too long.")
        tags = tool_parameters.get("tags")
        words = tags.split(",")
        body = tool_parameters.get("body", None)
        if title.startswith("#"):
            body = None
        footer = tool_parameters.get("footer")
        if words:
            note = title + " - " + footer
        else:
            note = title
        # Good twins: a tested name, a rebound name, a default given to `.get`, a name only shown.
        prefix = tool_parameters.get("prefix")
        if prefix:
            note = prefix.strip() + note
        lang = tool_parameters.get("lang")
        lang = lang or "en"
        topic = tool_parameters.get("topic", "")
        yield self.create_text_message(f"{note} {lang.upper()} {topic.upper()} {body}")
