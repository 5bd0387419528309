from dify_plugin import Tool
from dify_plugin.core.runtime import Session


class SavingTool(Tool):
    """The plugin's own base: its subclasses' `self` is still the SDK's Tool."""

    def save(self, key: str, data: bytes) -> None:
        self.session.storage.set(key)
        remember(self.session, key)


def remember(session: Session, key: str) -> None:
    session.storage.set(key=key, value=b"1")
