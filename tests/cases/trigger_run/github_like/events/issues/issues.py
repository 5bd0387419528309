from collections.abc import Mapping
from typing import Any

from werkzeug import Request

from dify_plugin.entities.trigger import Variables
from dify_plugin.errors.trigger import EventIgnoreError
from dify_plugin.interfaces.trigger import Event


class IssuesEvent(Event):
    def _on_event(self, request: Request, parameters: Mapping[str, Any], payload: Mapping[str, Any]) -> Variables:
        delivery = request.get_json()
        action = delivery["action"]
        wanted = [a.strip() for a in (parameters.get("actions") or "").split(",") if a.strip()]
        if wanted and action not in wanted:
            raise EventIgnoreError(f"action {action} is not one of {wanted}")
        issue = delivery["issue"]
        return Variables(
            variables={
                "action": action,
                "number": issue["number"],
                "title": issue["title"],
                "body": issue["body"],
                "url": issue["html_url"],
                "user": {"login": issue["user"]["login"]},
                "kind": payload.get("kind", ""),
            }
        )
