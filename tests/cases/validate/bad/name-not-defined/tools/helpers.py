import base64


def decode(data: str) -> str:
    try:
        return base64.urlsafe_b64decode(data).decode()
    except (binascii.Error, UnicodeDecodeError):  # binascii is never imported
        return data
