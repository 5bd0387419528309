def shout(word: str) -> str:
    return word.upper()
