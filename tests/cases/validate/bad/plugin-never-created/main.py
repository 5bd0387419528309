from dify_plugin import DifyPluginEnv

from provider.demo import Demo

# The module makes the SDK's environment and ends: nothing here serves a request.
env = DifyPluginEnv()
print("providers:", Demo.__name__, env)
