from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage


def echoed(tool: Tool, text: str) -> ToolInvokeMessage:
    return tool.create_variable_message("echoed", text)
