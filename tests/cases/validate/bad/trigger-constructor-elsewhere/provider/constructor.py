from collections.abc import Mapping
from typing import Any


from dify_plugin.entities.provider_config import CredentialType
from dify_plugin.entities.trigger import Subscription, UnsubscribeResult
from dify_plugin.interfaces.trigger import TriggerSubscriptionConstructor


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
