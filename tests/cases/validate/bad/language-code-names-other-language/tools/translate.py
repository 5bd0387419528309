from collections.abc import Generator
from typing import Any

import httpx
from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

# Names the service's answer gives, back to the codes it takes.
NAMES_TO_CODES = {"English": "en", "German": "de", "Slovenian": "si", "Japanese": "ja"}
# Codes to the names put in the prompt; `ka` is how the OCR service spells Kannada.
CODES_TO_NAMES = {"en": "English", "ja": "Japanese", "ka": "Kannada", "ee": "Estonian"}
# The languages the speech service reads aloud, as (name, code) pairs.
VOICES = [("Korean", "ko"), ("Thai", "th"), ("Swedish", "se"), ("Danish", "dk")]


class TranslateTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        target = tool_parameters["target"]
        response = httpx.post(
            "https://api.example.com/translate",
            json={
                "text": tool_parameters["text"],
                "target": target,
                "target_name": CODES_TO_NAMES.get(target, target),
                "voices": [code for _, code in VOICES],
                "country": tool_parameters.get("country") or "US",
            },
            headers={"Authorization": f"Bearer {self.runtime.credentials['api_key']}"},
            timeout=30,
        )
        detected = NAMES_TO_CODES.get(response.json()["detected"], "en")
        yield self.create_json_message({"text": response.json()["text"], "source": detected})
