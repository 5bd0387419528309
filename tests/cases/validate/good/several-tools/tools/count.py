from dify_plugin import Tool


class Count(Tool):
    pass
