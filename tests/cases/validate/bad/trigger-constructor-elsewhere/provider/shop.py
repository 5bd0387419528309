import hashlib
import hmac

from werkzeug import Request, Response

from dify_plugin.entities.trigger import EventDispatch, Subscription
from dify_plugin.errors.trigger import TriggerValidationError
from dify_plugin.interfaces.trigger import Trigger


class ShopTrigger(Trigger):
    def _dispatch_event(self, subscription: Subscription, request: Request) -> EventDispatch:
        secret = subscription.properties.get("signing_secret")
        if secret:
            expected = hmac.new(secret.encode(), request.get_data(), hashlib.sha256).hexdigest()
            if not hmac.compare_digest(expected, request.headers.get("X-Shop-Signature", "")):
                raise TriggerValidationError("bad signature")
        events = ["order_paid"] if request.headers.get("X-Shop-Topic") == "orders/paid" else []
        return EventDispatch(events=events, response=Response("ok", status=200))
