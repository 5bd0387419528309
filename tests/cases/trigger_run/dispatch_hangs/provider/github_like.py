import time

from werkzeug import Request

from dify_plugin.entities.trigger import EventDispatch, Subscription
from dify_plugin.interfaces.trigger import Trigger


class GithubLikeTrigger(Trigger):
    def _dispatch_event(self, subscription: Subscription, request: Request) -> EventDispatch:
        while True:  # waits for a delivery that never ends; sleeping, so the wall clock stops it, not the CPU limit
            time.sleep(1)
