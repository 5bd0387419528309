"""Dify plugin registry: validate plugins, run their tools, publish schemas and a catalog site."""

__version__ = "0.1.0"
