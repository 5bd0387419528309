from collections.abc import Mapping
from typing import Any

from werkzeug import Request

from dify_plugin.entities.trigger import Variables
from dify_plugin.errors.trigger import EventIgnoreError
from dify_plugin.interfaces.trigger import Event


class OrderPaidEvent(Event):
    def _on_event(self, request: Request, parameters: Mapping[str, Any], payload: Mapping[str, Any]) -> Variables:
        order = request.get_json()
        minimum = parameters.get("minimum_total")
        if minimum is not None and order["total"] < minimum:
            raise EventIgnoreError()
        customer = order.get("customer") or {}
        return Variables(
            variables={
                "order_id": str(order["id"]),
                "total": order["total"],
                "customer": {"email": customer.get("email", ""), "name": customer.get("name", "")},
            }
        )
