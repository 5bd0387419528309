from dify_plugin import DifyPluginEnv, DifyPluginRunner, Plugin

plugin = Plugin(DifyPluginEnv(MAX_REQUEST_TIMEOUT=120))
plugin.register_provider("demo")  # the SDK registers what the manifest lists by itself
runner = DifyPluginRunner(plugin)

if __name__ == "__main__":
    plugin.run()
