"""The schema registry: hosted versioned schemas, offline `$ref` resolution, lint and publication.

Everything here is data and functions over data; the site renders it and the CLI reports it.
"""

from generator.published import SCHEMA_BASE
from generator.schemas.lint import INLINE, Flavour, lint_schema
from generator.schemas.load import SchemaLoadError, load_schemas, shipped_schemas
from generator.schemas.lock import check_lock, record_lock
from generator.schemas.output import Mismatch, json_path, validate_output
from generator.schemas.properties import flatten_properties
from generator.schemas.publish import (
    CATALOG_PATH,
    referenced_ids,
    referencing_tools,
    schema_catalog,
    served_files,
)
from generator.schemas.refs import Reference, RefKind, analyse
from generator.schemas.sample import example_instance
from generator.schemas.schema_set import HostedSchema, PropertyRow, SchemaSet
from generator.shipped import shipped_schemas_root

__all__ = [
    "CATALOG_PATH",
    "INLINE",
    "SCHEMA_BASE",
    "Flavour",
    "HostedSchema",
    "Mismatch",
    "PropertyRow",
    "RefKind",
    "Reference",
    "SchemaLoadError",
    "SchemaSet",
    "analyse",
    "check_lock",
    "example_instance",
    "flatten_properties",
    "json_path",
    "lint_schema",
    "load_schemas",
    "record_lock",
    "referenced_ids",
    "referencing_tools",
    "schema_catalog",
    "served_files",
    "shipped_schemas",
    "shipped_schemas_root",
    "validate_output",
]
