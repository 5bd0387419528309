import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

from werkzeug import Request, Response

from dify_plugin.entities.provider_config import CredentialType
from dify_plugin.entities.trigger import EventDispatch, Subscription, UnsubscribeResult
from dify_plugin.errors.trigger import TriggerValidationError
from dify_plugin.interfaces.trigger import Trigger, TriggerSubscriptionConstructor


class ShopTrigger(Trigger):
    def _dispatch_event(self, subscription: Subscription, request: Request) -> EventDispatch:
        secret = subscription.properties.get("signing_secret")
        if secret:
            expected = hmac.new(secret.encode(), request.get_data(), hashlib.sha256).hexdigest()
            if not hmac.compare_digest(expected, request.headers.get("X-Shop-Signature", "")):
                raise TriggerValidationError("bad signature")
        events = ["order_paid"] if request.headers.get("X-Shop-Topic") == "orders/paid" else []
        return EventDispatch(events=events, response=Response("ok", status=200))


class ShopSubscriptionConstructor(TriggerSubscriptionConstructor):
    def _validate_api_key(self, credentials: Mapping[str, Any]) -> None:
        if not credentials.get("api_token"):
            raise ValueError("an API token is needed")

    def _create_subscription(
        self,
        endpoint: str,
        parameters: Mapping[str, Any],
        credentials: Mapping[str, Any],
        credential_type: CredentialType,
    ) -> Subscription:
        return Subscription(endpoint=endpoint, parameters=parameters, properties={})

    def _delete_subscription(
        self, subscription: Subscription, credentials: Mapping[str, Any], credential_type: CredentialType
    ) -> UnsubscribeResult:
        return UnsubscribeResult(success=True)

    def _refresh_subscription(
        self, subscription: Subscription, credentials: Mapping[str, Any], credential_type: CredentialType
    ) -> Subscription:
        return subscription
