import json

import requests
from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        payload = {"text": tool_parameters["text"], "mode": tool_parameters.get("mode", "upper")}
        first = requests.post("https://api.example.com/echo", json=json.dumps(payload), timeout=10)
        body = json.dumps(payload, ensure_ascii=False)
        second = requests.post("https://api.example.com/echo", json=body, timeout=10)
        # Good twins: the object itself, and the text sent as data with its content type.
        third = requests.post("https://api.example.com/echo", json=payload, timeout=10)
        fourth = requests.post(
            "https://api.example.com/echo",
            data=json.dumps(payload),
            headers={"Content-Type": "application/json"},
            timeout=10,
        )
        # A name bound to the text in one branch and to an object in another is not judged.
        mixed = json.dumps(payload) if first.ok else payload
        fifth = requests.post("https://api.example.com/echo", json=mixed, timeout=10)
        texts = [r.text for r in (first, second, third, fourth, fifth)]
        yield self.create_variable_message("echoed", "".join(texts))
