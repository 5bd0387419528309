import base64


def decode(data: str) -> str:
    try:
        return base64.urlsafe_b64decode(data).decode()
    except (binascii.Error, UnicodeDecodeError):  # binascii is never imported
        return data


def read_text(data: bytes) -> str:
    try:
        return data.decode()
    except UnicodeDecodeError:
        return fallback_text  # never defined: only this handler, when it runs, raises NameError
