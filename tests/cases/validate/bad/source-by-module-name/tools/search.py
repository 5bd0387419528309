from dify_plugin import Tool


class Search(Tool):
    pass
