from typing import Any


def verbose(params: dict[str, Any]) -> bool:
    return bool(params.get("verbose_mode"))
