from dify_plugin import ToolProvider


class Demo(ToolProvider):
    pass
