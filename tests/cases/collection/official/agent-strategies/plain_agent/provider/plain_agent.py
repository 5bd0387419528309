from dify_plugin.interfaces.agent import AgentProvider


class PlainAgent(AgentProvider):
    pass
