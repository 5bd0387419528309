from dify_plugin import ToolProvider

from tools.echo import Echo


class Demo(ToolProvider):
    def _validate_credentials(self, credentials):
        # The provider declares no credentials: Dify never calls this, so the call below never runs.
        Echo()
