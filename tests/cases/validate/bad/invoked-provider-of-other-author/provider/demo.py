from dify_plugin import ToolProvider


class Demo(ToolProvider):
    def _validate_credentials(self, credentials: dict) -> None:
        if not credentials.get("api_key"):
            raise ValueError("An API key is required.")
