import json


def echo(text):
    return json.dumps(text)
