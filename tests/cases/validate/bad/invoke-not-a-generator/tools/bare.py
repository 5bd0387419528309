from dify_plugin import Tool


class Bare(Tool):
    def _invoke(self):
        yield self.create_text_message(self.runtime.tenant_id + self.runtime.user_id)
