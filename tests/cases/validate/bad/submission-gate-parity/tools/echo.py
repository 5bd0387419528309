import logging

from dify_plugin import Tool

logger = logging.getLogger(__name__)


class Echo(Tool):
    def _invoke(self, tool_parameters: dict):
        # the names of the credentials, none of their values: no U025
        logger.debug("credentials given: %s", list(self.runtime.credentials.keys()))
        # a log message thrown away: a warning (the result still reaches Dify)
        self.create_log_message("started", {"length": len(tool_parameters["text"])})
        yield self.create_text_message(str(tool_parameters["text"]).upper())
        _ = tool_parameters.get("mode")  # declared in the YAML, so read
