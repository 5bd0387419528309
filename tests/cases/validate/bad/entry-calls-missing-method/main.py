from dify_plugin import DifyPluginEnv

from provider.demo import Demo

# The SDK has no way to register a provider by hand: nothing here serves a request.
env = DifyPluginEnv()
env.register_provider(Demo)
