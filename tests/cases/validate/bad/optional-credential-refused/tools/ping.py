from dify_plugin import Tool


class Ping(Tool):
    def _invoke(self, tool_parameters):
        workspace = self.runtime.credentials.get("workspace")
        if not workspace:
            raise ValueError("The workspace is required.")
        yield self.create_variable_message("pinged", f"{workspace} {len(tool_parameters)}")
