import json

from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        text = tool_parameters["text"]
        mode = tool_parameters.get("mode", "upper")
        result = {"text": text, "mode": mode}
        yield self.create_json_message(json.dumps(result, ensure_ascii=False))
        body = f"{mode}: {text}"
        yield self.create_json_message(body)
        yield self.create_text_message(result)
        yield self.create_text_message(len(text))
        try:
            yield self.create_text_message({"echoed": text})
        except Exception:
            yield self.create_text_message("failed")
        # Good twins: what each message takes, and a name bound to text or a dictionary.
        yield self.create_json_message(result)
        yield self.create_text_message(json.dumps(result))
        either = result if mode == "upper" else text
        either = json.dumps(either)
        yield self.create_text_message(either)
        yield self.create_variable_message("echoed", text)
        import requests

        response = requests.get("https://api.example.com/echo", timeout=10)
        yield self.create_json_message(response.text)
        yield self.create_json_message(response.json())
        yield self.create_stream_variable_message("echoed", {"text": text})
        yield self.create_blob_message(b"x", meta={"file_name": "echo.txt", "mimetype": "text/plain"})
        yield self.create_blob_message(b"x", meta={"filename": "echo.txt", "mime_type": "text/plain", "name": "x"})
