"""The model of each plugin kind beyond tools: one module per kind, its frozen dataclasses keyed by
(plugin, provider, name), satisfying `generator.plugin_model.KindPart` for its provider."""
