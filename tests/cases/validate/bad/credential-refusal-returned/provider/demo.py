import requests
from dify_plugin import ToolProvider


class Demo(ToolProvider):
    def _validate_credentials(self, credentials):
        if not credentials.get("api_key"):
            return False
        try:
            response = requests.get(
                "https://api.example.com/me",
                headers={"Authorization": f"Bearer {credentials['api_key']}"},
                timeout=10,
            )
        except requests.RequestException:
            return False
        return response.ok
