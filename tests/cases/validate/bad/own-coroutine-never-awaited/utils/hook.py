import asyncio
import json
import urllib.request

BASE = "https://hooks.example.com"


def _post(key: str, body: dict) -> None:
    request = urllib.request.Request(
        f"{BASE}/send",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    urllib.request.urlopen(request, timeout=10).close()


async def probe(key: str) -> None:
    await asyncio.to_thread(_post, key, {"ping": True})


async def send(key: str, text: str) -> None:
    await asyncio.to_thread(_post, key, {"text": text})


async def send_all(key: str, texts: list[str]) -> None:
    for text in texts:
        send(key, text)  # inside a coroutine too, a call is not an await
    await asyncio.gather(*(send(key, text) for text in texts))
