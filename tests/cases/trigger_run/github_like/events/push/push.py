from collections.abc import Mapping
from typing import Any

from werkzeug import Request

from dify_plugin.entities.trigger import Variables
from dify_plugin.interfaces.trigger import Event


class PushEvent(Event):
    def _on_event(self, request: Request, parameters: Mapping[str, Any], payload: Mapping[str, Any]) -> Variables:
        delivery = request.get_json()
        head = delivery["head_commit"]["id"]
        return Variables(variables={"ref": delivery["ref"], "head_commit": head, "pusher": delivery["pusher"]["name"]})
