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


def summary(data: bytes) -> str:
    # nothing in the plugin calls this function: a latent defect, a warning
    return hashlib.sha256(data).hexdigest()


class Checker:
    def self_test(self) -> str:
        # a method of a plain class that nothing names: a warning
        return hashlib.sha1(b"").hexdigest()
