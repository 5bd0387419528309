from dify_plugin import DifyPluginEnv
from dify_plugin import Plugin as SdkPlugin


class Started(SdkPlugin):
    """A plugin made from a subclass of the SDK's Plugin still starts."""


if __name__ == "__main__":
    # The settings' own fields and pydantic's methods are attributes of DifyPluginEnv.
    env = DifyPluginEnv(MAX_REQUEST_TIMEOUT=120)
    settings = env.model_dump() if env.INSTALL_METHOD else env.dict()
    Started(env).run()
