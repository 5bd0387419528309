from dify_plugin import Tool


class Echo(Tool):
    def _invoke(self, tool_parameters):
        credentials = self.runtime.credentials
        region = credentials["region"] if "region" in credentials else "us"
        yield self.create_text_message(f"{region} {self._host()} {len(tool_parameters)}")
        yield self.create_variable_message("echoed", "")

    def _host(self) -> str:
        base_url = self.runtime.credentials.get("base_url")
        return base_url.rstrip("/") if base_url else "https://api.example.com"
