from dify_plugin import Tool
from dify_plugin.core.runtime import Session


class SavingTool(Tool):
    """The plugin's own base: its subclasses' `self` is still the SDK's Tool."""

    def save(self, key: str, data: bytes) -> None:
        self.session.storage.set(key, data)
        remember(self.session, key)

    def create_link_message(self, url: str, title: str = ""):  # the plugin's own helper, not the SDK's
        return super().create_link_message(url)


def remember(session: Session, key: str) -> None:
    session.storage.set(key=key, val=b"1")
