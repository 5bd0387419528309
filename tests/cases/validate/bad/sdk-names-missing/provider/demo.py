from typing import Any

from dify_plugin import ModelProvider


class Demo(ModelProvider):
    def validate_provider_credentials(self, credentials: dict[str, Any]) -> None:
        pass
