from dify_plugin import Tool


class Shout(Tool):
    pass
