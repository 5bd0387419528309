from dify_plugin import Tool


class Other(Tool):
    pass
