from dify_plugin import DifyPluginEnv
from dify_plugin import Plugin as SdkPlugin


class Started(SdkPlugin):
    """A plugin made from a subclass of the SDK's Plugin still starts."""


if __name__ == "__main__":
    Started(DifyPluginEnv(MAX_REQUEST_TIMEOUT=120)).run()
