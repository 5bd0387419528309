from typing import Any


def validate_params(params: dict[str, Any], required: list[str]) -> None:
    missing = [key for key in required if key not in params or params[key] is None]
    if missing:
        raise ValueError(f"Missing parameter(s): {', '.join(missing)}")


def build_payload(params: dict[str, Any]) -> dict[str, Any]:
    return {"title": params["title"], "sub_title": params["sub_title"]}


def account_of(params: dict[str, Any]) -> str:
    try:
        return params["account_id"]
    except KeyError:
        return "default"


def describe(params: dict[str, Any]) -> str:
    # shared by both tools: `colour` is the banner's parameter, not a lookup that never finds
    return f"{params['title']} ({params.get('colour') or 'plain'})"
