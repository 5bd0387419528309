from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        region = self.runtime.credentials["region"]  # optional: KeyError when left blank
        yield self.create_text_message(f"{region} {self._host()} {len(tool_parameters)}")
        yield self.create_variable_message("echoed", "")

    def _host(self) -> str:
        # None has no rstrip: fails when base_url is left blank.
        return self.runtime.credentials.get("base_url").rstrip("/")
