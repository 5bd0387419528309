import hmac
from collections.abc import Generator
from typing import Any

from dify_plugin import Tool
from dify_plugin.entities.tool import ToolInvokeMessage

from .hmac_header import check_secret, sign


def _fields(value: str) -> dict[str, str]:
    fields = {}
    for part in value.split(","):
        name, _, content = part.strip().partition("=")
        if name and content:
            fields[name] = content
    return fields


class VerifySignatureTool(Tool):
    def _invoke(self, tool_parameters: dict[str, Any]) -> Generator[ToolInvokeMessage, None, None]:
        credentials = self.runtime.credentials
        fields = _fields(str(tool_parameters.get("signature_header") or ""))
        expected_key = str(credentials.get("key_id") or "")
        if "v1" not in fields:
            valid, reason = False, "the header has no v1 signature"
        elif expected_key and fields.get("keyId", expected_key) != expected_key:
            valid, reason = False, f"signed with key {fields['keyId']!r}, not {expected_key!r}"
        else:
            computed = sign(
                check_secret(credentials),
                str(tool_parameters.get("payload") or ""),
                fields.get("t", ""),
                str(tool_parameters.get("algorithm") or "sha256"),
            )
            valid = hmac.compare_digest(computed, fields["v1"])
            reason = "the signature matches" if valid else "the signature does not match the payload"
        yield self.create_variable_message("valid", valid)
        yield self.create_variable_message("reason", reason)
        yield self.create_text_message(f"{'Valid' if valid else 'Invalid'}: {reason}")
