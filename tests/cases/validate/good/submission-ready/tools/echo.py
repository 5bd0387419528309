import logging

from dify_plugin import Tool

CACHE_KEY = "echo:last-text"
TOKEN_URL = "https://auth.acme.example/oauth/token"
TOKEN_HEADER = "Authorization"
logger = logging.getLogger(__name__)


class Echo(Tool):
    def _invoke(self, tool_parameters: dict):
        api_key = self.runtime.credentials["api_key"]
        secret = tool_parameters.get("secret", "")
        logger.info("echo with a key of %d characters, max_tokens %s", len(api_key), tool_parameters.get("max_tokens"))
        try:
            text = str(tool_parameters["text"])
        except KeyError:
            raise ValueError("text is required") from None
        try:
            mode = tool_parameters["mode"]
        except:  # noqa: E722 - a fallback value is a decision, not a hidden failure
            mode = "upper"
        yield self.create_text_message(text.upper() if mode == "upper" and api_key and not secret else text)
        yield self.create_variable_message("echoed", text.upper() if mode == "upper" and api_key and not secret else text)
