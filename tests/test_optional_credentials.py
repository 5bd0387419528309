"""R093 and R094 on the shapes the case folders do not hold: each variant of the provider's
`_validate_credentials` (base_url optional, api_key required, timeout optional with a default) and
the findings of those two rules it must produce, as (rule, severity, line)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.validate_cases import CASES, findings_of

HEAD = """from dify_plugin import ToolProvider
from dify_plugin.errors.tool import ToolProviderCredentialValidationError


class Demo(ToolProvider):
    def _validate_credentials(self, credentials):
"""
# The body of `_validate_credentials` (its first line is line 7), and what it must produce.
VARIANTS: dict[str, tuple[str, list[tuple[str, str, int]]]] = {
    "refused through a name bound to its value": (
        """        base_url = credentials.get("base_url")
        if base_url is None:
            raise ToolProviderCredentialValidationError("Enter the base URL.")
""",
        [("R094", "error", 8)],
    ),
    "compared with an empty string it never holds": (
        """        if credentials.get("base_url") == "":
            raise ToolProviderCredentialValidationError("Enter the base URL.")
""",
        [],
    ),
    "compared with its own empty fallback": (
        """        if credentials.get("base_url", "") == "":
            raise ToolProviderCredentialValidationError("Enter the base URL.")
""",
        [("R094", "error", 7)],
    ),
    "refused by a membership test": (
        """        if "base_url" not in credentials:
            raise ToolProviderCredentialValidationError("Enter the base URL.")
""",
        [("R094", "error", 7)],
    ),
    "required only with another setting": (
        """        if credentials.get("api_key") == "self-hosted":
            if not credentials.get("base_url"):
                raise ToolProviderCredentialValidationError("Enter the base URL.")
""",
        [],
    ),
    "refused where a handler swallows it": (
        """        try:
            if not credentials.get("base_url"):
                raise ToolProviderCredentialValidationError("Enter the base URL.")
        except Exception:
            pass
""",
        [],
    ),
    "subscript in a try whose handler raises": (
        """        try:
            url = credentials["base_url"]
        except Exception as e:
            raise ToolProviderCredentialValidationError(str(e))
        return url
""",
        [("R093", "error", 8)],
    ),
    "subscript whose handler gives a default": (
        """        try:
            url = credentials["base_url"]
        except KeyError:
            url = "https://api.example.com"
        return url
""",
        [],
    ),
    "subscript after the code stores the key": (
        """        credentials["base_url"] = credentials.get("base_url") or "https://api.example.com"
        return credentials["base_url"].rstrip("/")
""",
        [],
    ),
    "subscript before the code stores the key": (
        """        if credentials["base_url"] is None:
            credentials["base_url"] = ""
""",
        [("R093", "error", 7)],
    ),
    "subscript in a branch": (
        """        if credentials.get("api_key"):
            return credentials["region"]
""",
        [("R093", "warning", 8)],
    ),
    "value used as a string, tested first": (
        """        url = credentials.get("base_url")
        return url.rstrip("/") if url else "https://api.example.com"
""",
        [],
    ),
    "value with a fallback": (
        """        return credentials.get("base_url", "https://api.example.com").rstrip("/")
""",
        [],
    ),
    "value converted": (
        """        return int(credentials.get("base_url"))
""",
        [("R094", "error", 7)],
    ),
    "value concatenated": (
        """        return "Bearer " + credentials.get("base_url")
""",
        [("R094", "error", 7)],
    ),
    "value with an empty fallback, concatenated": (
        """        return "Bearer " + credentials.get("base_url", "")
""",
        [],
    ),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_optional_credential_shapes(name: str, tmp_path: Path) -> None:
    body, wanted = VARIANTS[name]
    folder = tmp_path / "plugin"
    shutil.copytree(CASES / "good" / "optional-credentials-handled", folder)
    (folder / "provider" / "demo.py").write_text(HEAD + body, encoding="utf-8")
    found = [
        (finding.rule, finding.severity.value, finding.line)
        for finding in findings_of(folder)
        if finding.rule in ("R093", "R094") and finding.file == "provider/demo.py"
    ]
    assert found == wanted
