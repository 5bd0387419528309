from dify_plugin import Tool


class SavingTool(Tool):
    """The plugin's own base: its subclasses' `self` is still the SDK's Tool."""

    def save(self, key: str, data: bytes) -> None:
        self.session.storage.set(key)
