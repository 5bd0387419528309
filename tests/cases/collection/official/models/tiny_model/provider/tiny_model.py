from dify_plugin import ModelProvider


class TinyModel(ModelProvider):
    def validate_provider_credentials(self, credentials):
        pass
