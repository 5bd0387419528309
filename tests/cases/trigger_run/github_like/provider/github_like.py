from werkzeug import Request, Response

from dify_plugin.entities.trigger import EventDispatch, Subscription
from dify_plugin.interfaces.trigger import Trigger


class GithubLikeTrigger(Trigger):
    def _dispatch_event(self, subscription: Subscription, request: Request) -> EventDispatch:
        kind = request.headers.get("X-GitHub-Event", "")
        wanted = subscription.properties.get("repository")
        payload = request.get_json(silent=True) or {}
        if wanted and (payload.get("repository") or {}).get("full_name") != wanted:
            return EventDispatch(events=[], response=Response("not subscribed", status=200))
        # every other kind is passed on under its own name (a star, a fork...)
        return EventDispatch(events=[kind], response=Response("ok", status=200), payload={"kind": kind})
