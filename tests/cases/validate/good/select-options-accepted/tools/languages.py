def check_language(language: str) -> None:
    if language not in ("en", "de"):
        raise ValueError(f"unsupported language {language}")
