from dify_plugin import Endpoint


class Hook(Endpoint):
    def _invoke(self, r, values, settings):
        return None
