from dify_plugin import Tool


class Echo(Tool):
    pass
