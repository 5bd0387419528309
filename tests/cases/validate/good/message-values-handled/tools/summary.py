def summary_of(url: str) -> dict[str, str] | None:
    if not url.startswith("http"):
        return None
    return {"url": url}
