from dify_plugin import Tool

CACHE_KEY = "echo:last-text"
TOKEN_URL = "https://auth.acme.example/oauth/token"
TOKEN_HEADER = "Authorization"


class Echo(Tool):
    def _invoke(self, tool_parameters: dict):
        api_key = self.runtime.credentials["api_key"]
        secret = tool_parameters.get("secret", "")
        yield self.create_text_message(tool_parameters["text"] if api_key and not secret else "")
