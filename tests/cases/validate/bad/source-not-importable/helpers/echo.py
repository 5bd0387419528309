from dify_plugin import Tool


class Shadowed(Tool):
    pass
