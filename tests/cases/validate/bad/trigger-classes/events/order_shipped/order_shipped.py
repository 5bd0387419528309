from collections.abc import Mapping
from typing import Any

from werkzeug import Request

from dify_plugin.entities.trigger import Variables
from dify_plugin.interfaces.trigger import Event


class OrderEvent(Event):
    def _order(self, request: Request) -> dict[str, Any]:
        return request.get_json()


class OrderShippedEvent(OrderEvent):
    def _on_event(self, request: Request, parameters: Mapping[str, Any], payload: Mapping[str, Any]) -> Variables:
        return Variables(variables=self._order(request))
