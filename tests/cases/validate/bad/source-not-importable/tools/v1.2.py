from dify_plugin import Tool


class Dotted(Tool):
    pass
