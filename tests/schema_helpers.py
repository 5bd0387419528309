"""Small builders for schema-registry tests: temporary schemas folders and schema sets."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from generator.published import SCHEMA_BASE
from generator.schemas import SchemaSet, load_schemas
from tests.conftest import REPO

# Dify's six output schemas, which the registry hosts under the same names.
OUTPUT_SCHEMAS = (
    "file",
    "general_structure",
    "parent_child_structure",
    "qa_structure",
    "multimodal_general_structure",
    "multimodal_parent_child_structure",
)


def hosted(name: str, **content: Any) -> dict[str, Any]:
    """A well-formed hosted schema `v1/<name>.json` with the given keywords."""
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": f"{SCHEMA_BASE}v1/{name}.json",
        "title": name,
        "description": f"The {name} schema",
        **content,
    }


def write_schemas(root: Path, files: dict[str, Any]) -> Path:
    """A schemas folder at `root` holding `files` (relative path -> JSON data, or raw text)."""
    for relative, data in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2), encoding="utf-8")
    return root


def copy_repo_schemas(target: Path) -> Path:
    """A copy of the repository's schemas folder (lock included) at `target`."""
    shutil.copytree(REPO / "schemas", target)
    return target


def repo_schemas() -> SchemaSet:
    """The repository's own schemas."""
    return load_schemas(REPO / "schemas")
