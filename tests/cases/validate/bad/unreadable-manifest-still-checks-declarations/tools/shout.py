  import os


def shout(text):
    return text.upper()
