from typing import Any


def headers_for(credential: dict[str, Any]) -> dict[str, str]:
    """Headers of the chosen sign-in method; the wiki's flavour decides the header's name."""
    flavour = credential.get("flavour").lower()
    method = credential.get("login", "basic")
    if method == "basic":
        return {"Authorization": f"Basic {credential['secret']}"}
    if method != "bearer":
        return {}
    name = "X-Token" if flavour == "cloud" else "Authorization"
    return {name: f"Bearer {credential['secret']}"}
