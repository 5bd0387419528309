"""The dify_plugin version a plugin's dependency files install, and that version's File, from the
index read from the published wheels (`generator/check/sdk_file_index.json`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.version import Version

from generator.check.sdk_index import file_attributes, file_attributes_in, installed_sdk
from generator.load.reader import PluginReader

LOCK = """version = 1
[[package]]
name = "dify-plugin"
version = "0.0.1b44"
source = { registry = "https://pypi.org/simple" }
"""


def _installed(folder: Path, files: dict[str, str]) -> Version | None:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return installed_sdk(PluginReader(folder))


@pytest.mark.parametrize(
    ("files", "version"),
    [
        ({"requirements.txt": "dify_plugin==0.0.1b44\n"}, "0.0.1b44"),
        ({"requirements.txt": "requests\ndify-plugin~=0.4.0  # the SDK\n"}, "0.4.5"),
        ({"requirements.txt": "dify_plugin>=0.0.1b20,<0.0.1b50\n"}, "0.0.1b49"),  # only betas fit
        ({"requirements.txt": "dify_plugin>=0.2,<0.4\n"}, "0.3.5"),  # no beta when finals fit
        (
            {
                "pyproject.toml": '[project]\nname = "p"\ndependencies = ["dify_plugin>=0.1"]\n',
                "uv.lock": LOCK,
            },
            "0.0.1b44",
        ),
        ({"pyproject.toml": '[project]\nname = "p"\ndependencies = ["dify_plugin<0.7"]\n'}, "0.6.2"),
        ({"requirements.txt": "requests\n"}, None),
        ({}, None),
    ],
)
def test_the_version_the_files_install(tmp_path: Path, files: dict[str, str], version: str | None) -> None:
    found = _installed(tmp_path / "plugin", files)
    assert found == (Version(version) if version else None)


def test_file_grew_in_two_steps() -> None:
    """0.0.1b44's File has no mime_type, 0.0.1b45's no filename, 0.0.1b47's both; no File before b15."""
    assert file_attributes(Version("0.0.1b44")) == frozenset({"url", "dify_model_identity", "blob"})
    newer = frozenset({"url", "dify_model_identity", "blob", "mime_type", "type"})
    assert file_attributes(Version("0.0.1b45")) == newer
    assert {"filename", "extension", "size"} <= (file_attributes(Version("0.10.2")) or set())
    assert file_attributes(Version("0.0.1b10")) is None


def test_attributes_are_read_from_the_class() -> None:
    source = (
        "class File(BaseModel):\n    url: str\n    _blob: bytes | None = None\n"
        "    @property\n    def blob(self) -> bytes: ...\n    def _private(self) -> None: ...\n"
    )
    assert file_attributes_in(source) == {"url", "blob"}
