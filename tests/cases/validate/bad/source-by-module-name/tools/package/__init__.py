from dify_plugin import Tool


class Package(Tool):
    pass
