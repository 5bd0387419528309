def titles(query: str) -> list[str]:
    if len(query) < 3:
        return []
    return [query.title()]
