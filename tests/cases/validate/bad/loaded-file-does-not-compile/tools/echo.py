from dify_plugin import Tool

from utils.text import shout


class Echo(Tool):
    def _invoke(self, tool_parameters):
        yield self.create_text_message(shout(tool_parameters["text"]))
        yield self.create_variable_message("echoed", tool_parameters["mode"])


def later():
    from lazy.late import late  # imported only when called

    return late
