from dify_plugin import Tool

# OLD_TOKEN = "ghs_Q4r8ZpK2mX9vL7tB3nW6yH1cJ5dF0aGeRs"
client_secret = "kP3xR8vQ2mZ7tL9wB4nY6hJ1cD5fG0aS"
FIXTURE_TOKEN_SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
SERVICE_KEY = "Zq8vT2mK9xLp4RwN7bYc3HsJ6dFg1QaE"
EXAMPLE = {"api_key": "sk-xxxxxxxxxxxxxxxxxxxxxxxx"}


class Echo(Tool):
    def _invoke(self, tool_parameters: dict):
        api_key = self.runtime.credentials["api_key"]
        password = tool_parameters.get("password", "")
        yield self.create_text_message(api_key + password)
