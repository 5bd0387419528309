import logging

from dify_plugin import Tool


class Silent(Tool):
    def _invoke(self, tool_parameters):
        logging.info("%s %s", tool_parameters["text"], tool_parameters.get("mode"))
