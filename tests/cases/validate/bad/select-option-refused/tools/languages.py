def check_language(language: str) -> None:
    if language not in ("en", "de", "fr_FR"):
        raise ValueError(f"unsupported language {language}")
