import json

from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        items = json.loads(tool_parameters.get("items"))
        limit = 10
        if items:
            limit = int(tool_parameters.get("limit"))
        # Good twins: a tested value, a handler of TypeError, a default given to `.get`.
        tags = json.loads(tool_parameters.get("tags")) if tool_parameters.get("tags") else []
        try:
            size = float(tool_parameters.get("size"))
        except TypeError:
            size = 1.0
        order = json.loads(tool_parameters.get("order", "[]"))
        yield self.create_json_message({"items": items[:limit], "tags": tags, "size": size, "order": order})
