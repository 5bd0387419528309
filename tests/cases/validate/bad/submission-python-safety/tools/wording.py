"""Log lines and errors that name a credential without showing it: none is a U025 finding."""

import logging

logger = logging.getLogger(__name__)


def mask_key(value: str) -> str:
    """The last four characters only."""
    return "****" + value[-4:]


def describe(api_key: str, token: str | None) -> None:
    logger.info("calling the service with key %s", mask_key(api_key))
    logger.info("api key %s", "set" if api_key else "missing")
    if token is None:
        raise ValueError("a token is required" if not api_key else "the token is empty")


def words(expression: str) -> list[str]:
    """Split a filter expression into words; a word is a parser's token, not a credential."""
    found: list[str] = []
    for token in expression.split():
        if not token.isidentifier():
            raise ValueError(f"unexpected token {token!r} in {expression!r}")
        found.append(token)
    position = 0
    while position < len(found):
        current_token = found[position]
        logger.debug("read token %s", current_token)
        position += 1
    return found


def refresh(credentials: dict) -> None:
    token = credentials["token"]
    logger.info("refreshing with %s", token)  # a credential's token: reported
