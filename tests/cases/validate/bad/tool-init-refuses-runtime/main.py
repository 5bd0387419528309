from dify_plugin import DifyPluginEnv, Plugin

Plugin(DifyPluginEnv()).run()
