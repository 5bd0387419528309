"""The models of plugin kinds other than tools, one module per kind (`trigger.py`, ...).

Each kind's provider dataclass satisfies `plugin_model.KindPart`; its children are keyed by
(plugin, provider, name), never by file names. Values copied from YAML are plain, read-only data.
"""
