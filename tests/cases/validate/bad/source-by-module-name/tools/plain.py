from dify_plugin import Tool


class Plain(Tool):
    pass
