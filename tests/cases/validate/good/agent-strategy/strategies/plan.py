from dify_plugin.interfaces.agent import AgentStrategy


class Plan(AgentStrategy):
    def _invoke(self, parameters):
        yield self.create_text_message("planned")
