from base.tool import BaseTool


class Relay(BaseTool):
    output = "relayed"
