from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        credentials = self.runtime.credentials
        if not credentials.get("token"):
            raise ValueError("The upload token is required.")
        if "workspace" not in credentials:
            yield self.create_text_message("Set the workspace in the provider's credentials.")
            return
        yield self.create_variable_message("echoed", credentials["workspace"] + credentials["token"] + str(len(tool_parameters)))
