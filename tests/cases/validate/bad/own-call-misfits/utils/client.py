import json
import urllib.request
from dataclasses import dataclass

BASE = "https://api.example.com"


def ping(key: str, timeout: float) -> None:
    request = urllib.request.Request(f"{BASE}/ping", headers={"Authorization": f"Bearer {key}"})
    urllib.request.urlopen(request, timeout=timeout).close()


def joined(*parts: str) -> str:
    return "/".join(parts)


@dataclass
class Options:
    limit: int = 10


class Client:
    def __init__(self, key: str, *, region: str = "eu") -> None:
        self.key = key
        self.region = region

    def fetch(self, path: str) -> dict:
        return self._get(path, 10)  # `_get` takes the path only

    def _get(self, path: str) -> dict:
        request = urllib.request.Request(
            f"{BASE}/{self.region}/{path}", headers={"Authorization": f"Bearer {self.key}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


class Renderer:
    def show(self, value: str) -> str:
        return self.render(value, "text")  # a subclass's `render` may take both: not judged

    def render(self, value: str) -> str:
        return value


class PlainRenderer(Renderer):
    def render(self, value: str, style: str = "") -> str:
        return f"{style}:{value}"


class ApiError(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
