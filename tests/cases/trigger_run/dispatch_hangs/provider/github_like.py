import time

from dify_plugin.entities.trigger import EventDispatch, Subscription
from dify_plugin.interfaces.trigger import Trigger
from werkzeug import Request


class GithubLikeTrigger(Trigger):
    def _dispatch_event(self, subscription: Subscription, request: Request) -> EventDispatch:
        # waits for a delivery that never ends; asleep, so the wall clock stops it, not the CPU limit
        while True:
            time.sleep(1)
