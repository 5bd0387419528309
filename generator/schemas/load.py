"""Load the hosted schemas (`schemas/vN/**/*.json`) into one immutable registry keyed by `$id`."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

from referencing import Registry, Resource

from generator.findings import Finding, Location, Severity
from generator.load.yamlload import YamlDocument, read_yaml
from generator.published import SCHEMA_BASE
from generator.rules import rule
from generator.schemas.lint import HOSTED, lint_schema
from generator.schemas.properties import flatten_properties
from generator.schemas.refs import refuse_retrieval, specification_of
from generator.schemas.sample import example_instance
from generator.schemas.schema_set import DerivedFacts, HostedSchema, SchemaSet
from generator.schemas.walk import Parts
from generator.shipped import shipped_schemas_root

VERSION_FOLDER = re.compile(r"^v[1-9][0-9]*$")
MAX_SCHEMA_BYTES = 4 * 1024 * 1024


class SchemaLoadError(Exception):
    """A schema file (or the lock) cannot be read or is not JSON: the registry is broken."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


ID_MISMATCH = rule(
    "S020",
    "schema-id-mismatch",
    Severity.ERROR,
    "$id {declared!s} differs from the URL the file is served at, {served}",
    "Set `$id` to {served}, or move the file to the path its `$id` names.",
    """
The site serves `schemas/<version>/<name>.json` at `https://dify.ai/schemas/<version>/<name>.json`,
and tools reference schemas by `$id`. A file whose `$id` differs from its address is found under a
URL nobody can download, and the address it is downloaded from does not identify it.
""",
)
MISSING_ID = rule(
    "S021",
    "schema-missing-id",
    Severity.ERROR,
    "the schema has no $id",
    'Add `"$id": "{served}"`.',
    """
Every published schema declares its `$id`, the URL at which it is served; references find schemas
by it. A schema without one cannot be referenced.
""",
)
MISSING_METADATA = rule(
    "S022",
    "schema-missing-metadata",
    Severity.WARNING,
    "the schema has no {field}",
    "Add `{field}`: every published schema states its dialect, a title and a description.",
    """
Editors show a schema's `title` and `description`, the schema catalog lists them, and `$schema`
tells validators which JSON Schema version the file is written in.
""",
)
DUPLICATE_ID = rule(
    "S023",
    "schema-duplicate-id",
    Severity.ERROR,
    "$id {id!s} is already declared by {other}",
    "Give each schema its own `$id`, the URL of its own file.",
    """
Two files declare the same `$id`; references to it cannot say which is meant. The registry keeps
the first file in path order.
""",
)
NOT_OBJECT = rule(
    "S024",
    "schema-not-object",
    Severity.ERROR,
    "the file holds {kind}, not a JSON Schema object",
    "A published schema is a JSON object with `$schema`, `$id`, `title` and `description`.",
    """
A published schema file must hold one JSON object. (JSON Schema allows `true` and `false` as
schemas, but a published file needs its `$id` and metadata.)
""",
)


# Constant data of the installed generator, not state of a run: loaded once per process.
@functools.cache
def shipped_schemas() -> SchemaSet:
    """The generator's own hosted schemas, loaded once."""
    return load_schemas(shipped_schemas_root())


def schema_files(root: Path) -> Iterator[tuple[str, Path]]:
    """(path relative to `root`, file) of every `vN/**/*.json`, sorted."""
    if not root.is_dir():
        raise SchemaLoadError(root.as_posix(), "no such schemas folder")
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and VERSION_FOLDER.match(p.name)):
        for path in sorted(folder.rglob("*.json")):
            yield path.relative_to(root).as_posix(), path


def read_schema_file(path: Path, shown: str) -> tuple[bytes, Any]:
    """The bytes and parsed JSON of one schema file; a SchemaLoadError when unusable."""
    if path.is_symlink():
        raise SchemaLoadError(shown, "symbolic links are not published")
    try:
        raw = path.read_bytes()
    except OSError as problem:
        raise SchemaLoadError(shown, f"cannot be read: {problem.strerror or problem}") from None
    if len(raw) > MAX_SCHEMA_BYTES:
        raise SchemaLoadError(shown, f"{len(raw)} bytes, over the limit of {MAX_SCHEMA_BYTES}")
    try:
        return raw, json.loads(raw)
    except json.JSONDecodeError as bad:
        raise SchemaLoadError(
            shown, f"not JSON: {bad.msg} at line {bad.lineno}, column {bad.colno}"
        ) from None
    except (UnicodeDecodeError, ValueError) as bad:
        raise SchemaLoadError(shown, f"not JSON: {bad}") from None
    except RecursionError:
        raise SchemaLoadError(shown, "not JSON this registry can read: nested too deep") from None


@dataclasses.dataclass
class _File:
    hosted: HostedSchema
    duplicate_of: str = ""  # the path of the file that declared the same `$id` first

    @functools.cached_property
    def document(self) -> YamlDocument:
        """The same bytes read with positions, to point findings at lines (read only to lint)."""
        return read_yaml(self.hosted.content, self.hosted.path)

    def locate(self, parts: Parts, key: bool) -> Location:
        return self.document.key_at(*parts) if key else self.document.at(*parts)


def load_schemas(root: Path) -> SchemaSet:
    """Every schema under `root` (a `schemas/` folder), in a registry that never fetches; each
    file's lint, property rows and example are derived when first asked for."""
    files = [_read(relative, path) for relative, path in schema_files(root)]
    resources: list[tuple[str, Resource[Any]]] = []
    by_id: dict[str, HostedSchema] = {}
    for file in files:
        schema = file.hosted
        if schema.id in by_id:
            file.duplicate_of = by_id[schema.id].path
        elif schema.id:
            by_id[schema.id] = schema
            resources.append((schema.id, specification_of(schema.data).create_resource(schema.data)))
    registry: Registry[Any] = Registry(retrieve=refuse_retrieval).with_resources(resources).crawl()  # type: ignore[call-arg]
    # The facts are derived against this first set: its files' content is the final one's.
    draft = SchemaSet(registry, tuple(f.hosted for f in files), root, MappingProxyType(by_id))
    finished = tuple(
        dataclasses.replace(file.hosted, derive=functools.partial(_derive, file, draft)) for file in files
    )
    kept = {schema.path for schema in by_id.values()}
    final_ids = MappingProxyType({schema.id: schema for schema in finished if schema.path in kept})
    return dataclasses.replace(draft, hosted=finished, _by_id=final_ids)


def _read(relative: str, path: Path) -> _File:
    shown = f"schemas/{relative}"
    raw, data = read_schema_file(path, shown)
    version, _, rest = relative.partition("/")
    is_object = isinstance(data, dict)

    def text(key: str) -> str:
        value = data.get(key) if is_object else None
        return value if isinstance(value, str) else ""

    hosted = HostedSchema(
        id=text("$id"),
        name=Path(rest).with_suffix("").as_posix(),
        version=version,
        path=shown,
        content=raw,
        data=data,
        title=text("title"),
        description=text("description"),
    )
    return _File(hosted)


def _derive(file: _File, schemas: SchemaSet) -> DerivedFacts:
    schema = file.hosted
    findings: list[Finding] = []
    if not isinstance(schema.data, dict):
        data = schema.data
        kind = "a list" if isinstance(data, list) else f"a {type(data).__name__}"
        return DerivedFacts(lint=(NOT_OBJECT.at(file.locate((), False), kind=kind),))
    if file.duplicate_of:
        findings.append(DUPLICATE_ID.at(file.locate(("$id",), False), id=schema.id, other=file.duplicate_of))
    served = SCHEMA_BASE + schema.path.removeprefix("schemas/")
    if not schema.id:
        findings.append(MISSING_ID.at(file.locate((), False), served=served))
    elif schema.id != served:
        findings.append(ID_MISMATCH.at(file.locate(("$id",), False), declared=schema.id, served=served))
    for field in ("$schema", "title", "description"):
        if not isinstance(schema.data.get(field), str):
            findings.append(MISSING_METADATA.at(file.locate((), False), field=field))
    base = schema.id or served
    findings.extend(lint_schema(schema.data, schemas, file.locate, HOSTED, base))
    return DerivedFacts(
        lint=tuple(findings),
        properties=flatten_properties(schema.data, schemas, base),
        example=example_instance(schema.data, schemas, base),
    )
