from provider.base import KeyedProvider


class DemoProvider(KeyedProvider):
    pass
