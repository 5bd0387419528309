"""Signature header `keyId=...,t=...,v1=...`: HMAC over "<timestamp>.<payload>" (or the payload alone)."""

import hashlib
import hmac
import re
from typing import Any

ALGORITHMS = {"sha256": hashlib.sha256, "sha512": hashlib.sha512}
SECRET_PREFIX = "whsec_"
MIN_SECRET_LENGTH = 16


def check_secret(credentials: dict[str, Any]) -> str:
    secret = credentials.get("signing_secret")
    if not isinstance(secret, str) or not secret.startswith(SECRET_PREFIX):
        raise ValueError(f"The signing secret must start with {SECRET_PREFIX}.")
    if len(secret) - len(SECRET_PREFIX) < MIN_SECRET_LENGTH:
        raise ValueError(f"The signing secret needs at least {MIN_SECRET_LENGTH} characters after {SECRET_PREFIX}.")
    if not re.fullmatch(r"[\x21-\x7e]+", secret):
        raise ValueError("The signing secret may contain only printable ASCII characters without spaces.")
    return secret


def sign(secret: str, payload: str, timestamp: str, algorithm: str) -> str:
    if algorithm not in ALGORITHMS:
        raise ValueError(f"Unknown algorithm {algorithm!r}; use {' or '.join(ALGORITHMS)}.")
    if timestamp and not timestamp.isdigit():
        raise ValueError("The timestamp must be whole seconds since 1970, such as 1767225600.")
    message = f"{timestamp}.{payload}" if timestamp else payload
    return hmac.new(secret.encode(), message.encode(), ALGORITHMS[algorithm]).hexdigest()


def header(key_id: str, timestamp: str, signature: str) -> str:
    parts = [f"keyId={key_id}"] if key_id else []
    if timestamp:
        parts.append(f"t={timestamp}")
    parts.append(f"v1={signature}")
    return ",".join(parts)


def timestamp_of(value: Any) -> str:
    # Number parameters arrive as int or float; "1767225600.0" must not enter the signed text.
    if value is None or value == "":
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()
