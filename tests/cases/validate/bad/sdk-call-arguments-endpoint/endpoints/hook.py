from dify_plugin import Endpoint


class Hook(Endpoint):
    def _invoke(self, r, values, settings):
        self.session.storage.set("last-hook", r.get_data(), expire=60)
        return None
