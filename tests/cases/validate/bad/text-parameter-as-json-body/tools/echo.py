import json

import requests
from dify_plugin import Tool

URL = "https://api.example.com/echo"


class Echo(Tool):
    def _invoke(self, tool_parameters):
        first = requests.post(URL, json=tool_parameters["body"], timeout=10)
        body = tool_parameters.get("body")
        second = requests.put(URL, json=body, timeout=10)
        third = _send(tool_parameters)
        # Good twins: object and array parameters arrive parsed; text parsed first is an object.
        fourth = requests.post(URL, json=tool_parameters["payload"], timeout=10)
        fifth = requests.post(URL, json=tool_parameters.get("items"), timeout=10)
        parsed = tool_parameters["body"]
        parsed = json.loads(parsed)
        sixth = requests.post(URL, json=parsed, timeout=10)
        texts = [r.text for r in (first, second, third, fourth, fifth, sixth)]
        yield self.create_variable_message("echoed", "".join(texts))


def _send(params):
    return requests.patch(URL, json=params.get("body", "{}"), timeout=10)
