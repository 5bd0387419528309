from dify_plugin.interfaces.model.large_language_model import LargeLanguageModel


class AcmeChat(LargeLanguageModel):
    pass
