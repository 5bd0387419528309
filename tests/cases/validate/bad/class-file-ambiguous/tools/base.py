from dify_plugin import Tool


class SearchBase(Tool):
    """Shared by the plugin's tools; a Tool subclass itself."""

    endpoint = "https://api.example.com/search"
