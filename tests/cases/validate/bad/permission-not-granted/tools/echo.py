from dify_plugin import Tool
from dify_plugin.entities.model.message import UserPromptMessage


class Echo(Tool):
    def _invoke(self, tool_parameters):
        text = tool_parameters["text"]
        mode = tool_parameters.get("mode", "upper")
        # The manifest grants tool and storage access only.
        self.session.storage.set("last", text.encode())
        llm = self.session.model.llm
        answer = llm.invoke(
            model_config={"provider": "openai", "model": "gpt-4o-mini", "mode": "chat"},
            prompt_messages=[UserPromptMessage(content=text)],
            stream=False,
        )
        try:
            reply = self.session.app.chat.invoke("app-id", text, {}, response_mode="blocking")
        except Exception:
            reply = None
        self.session.file.upload("echo.txt", text.encode(), "text/plain")
        yield self.create_variable_message("echoed", f"{mode}:{answer}:{reply}")
