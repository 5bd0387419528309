from dify_plugin import Tool


class Demo:
    """Meant to be the provider, but derives from nothing."""

    def _validate_credentials(self, credentials):
        pass


def helper(tool: Tool) -> None:
    pass
