from collections.abc import Mapping

from dify_plugin import ModelProvider


class AcmeProvider(ModelProvider):
    def validate_provider_credentials(self, credentials: Mapping) -> None:
        pass
