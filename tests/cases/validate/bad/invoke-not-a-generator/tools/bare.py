from dify_plugin import Tool


class Bare(Tool):
    def _invoke(self):
        yield self.create_text_message(self.runtime.tenant_id + self.runtime.user_id)

    def fetch(self, file_id: str) -> bytes:
        if hasattr(self.runtime, "get_file"):  # probed first: silent
            return self.runtime.get_file(file_id)
        return b""
