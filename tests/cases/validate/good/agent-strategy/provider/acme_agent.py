from dify_plugin.interfaces.agent import AgentProvider


class AcmeAgentProvider(AgentProvider):
    pass
