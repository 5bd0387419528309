"""`$ref` resolution against the hosted schemas only, and detection of reference loops.

Every reference is looked up in the immutable registry; nothing is fetched and no file is read.
A reference that is not there is classified (unknown hosted URL, remote URL, file path) so the
finding can say what to do. Loops of references that never consume the instance (`$ref`, `allOf`
and friends applied to the same value) would make a validator recurse forever; they are found here
with an explicit stack, as are chains too long for the validator's recursion.
"""

from __future__ import annotations

import contextlib
import difflib
import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

import referencing.jsonschema
from referencing import Registry, Resource
from referencing.exceptions import InvalidAnchor, NoSuchAnchor, NoSuchResource, PointerToNowhere, Unresolvable

from generator.published import SCHEMA_BASE
from generator.schemas.schema_set import SchemaSet
from generator.schemas.walk import Parts, SchemaNode, Walk, rebase, walk

# In-place reference chains longer than this are refused: the validator recurses once per link.
MAX_REF_CHAIN = 32
INLINE_URI = ""
# What referencing raises when a schema's own keywords have the wrong JSON types.
MALFORMED = (TypeError, AttributeError, ValueError, KeyError, IndexError)
_HOSTED = urlsplit(SCHEMA_BASE)
_IN_PLACE_VALUES = ("not", "if", "then", "else")
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_MAPS = ("dependencies", "dependentSchemas")


class RefKind(enum.StrEnum):
    """What a `$ref` turned out to be."""

    RESOLVED = "resolved"
    UNKNOWN = "unknown"  # a hosted-looking URL (https://dify.ai/schemas/...) that is not hosted
    REMOTE = "remote"  # another web address; never fetched
    OUTSIDE = "outside"  # a file path, a file: URL, or a dify.ai address outside /schemas/
    POINTER = "pointer"  # the document exists but the fragment names nothing in it
    INVALID = "invalid"  # not a string, or not a URI reference at all


@dataclass(frozen=True, slots=True)
class Reference:
    """One `$ref` of a schema document and what it resolves to."""

    parts: Parts  # where the `$ref` keyword sits
    ref: str
    target: str  # absolute target (with fragment) when it could be formed
    kind: RefKind
    detail: str = ""
    suggestions: tuple[str, ...] = ()  # closest hosted `$id`s for an unknown hosted URL
    contents: Any = None  # the resolved subschema


class LoopKind(enum.StrEnum):
    """Why a chain of in-place references cannot be followed."""

    CYCLE = "cycle"
    TOO_DEEP = "too-deep"


@dataclass(frozen=True, slots=True)
class Loop:
    """A reference cycle or an over-long chain, reported at the first place that leads into it."""

    parts: Parts
    kind: LoopKind
    chain: tuple[str, ...]


@dataclass(frozen=True)
class RefReport:
    """Every reference of one document, every loop, and where nesting exceeded the limit."""

    references: tuple[Reference, ...]
    loops: tuple[Loop, ...]
    too_deep: Parts | None

    @property
    def problems(self) -> tuple[Reference, ...]:
        """References that do not resolve."""
        return tuple(r for r in self.references if r.kind is not RefKind.RESOLVED)

    @property
    def usable(self) -> bool:
        """True when a validator can follow this schema without unbounded recursion."""
        return not self.loops and self.too_deep is None


def refuse_retrieval(uri: str) -> Resource[Any]:
    """The registry's retrieve hook: nothing outside the hosted schemas exists."""
    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # attrs class; the stubs omit the field


def specification_of(schema: Any) -> referencing.Specification[Any]:
    """The JSON Schema dialect a schema declares, draft-07 (Dify's) when absent or unknown."""
    dialect = schema.get("$schema") if isinstance(schema, dict) else None
    if isinstance(dialect, str):
        try:
            return referencing.jsonschema.specification_with(dialect)
        except referencing.jsonschema.UnknownDialect:
            pass
    return referencing.jsonschema.DRAFT7


def closest_ids(target: str, schemas: SchemaSet, count: int = 3) -> tuple[str, ...]:
    """Hosted `$id`s that look most like `target` (compared without the common base)."""
    tails = {uri.removeprefix(SCHEMA_BASE): uri for uri in schemas.ids}
    wanted = urldefrag(target).url.removeprefix(SCHEMA_BASE)
    return tuple(tails[t] for t in difflib.get_close_matches(wanted, list(tails), n=count, cutoff=0.4))


def _absolute(base: str, ref: str) -> str:
    return urljoin(base, ref) if base else ref


def _missing_kind(target: str) -> RefKind:
    url = urlsplit(urldefrag(target).url)
    if url.scheme in ("", "file"):
        return RefKind.OUTSIDE
    if url.scheme in ("http", "https") and (url.hostname or "") == _HOSTED.hostname:
        return RefKind.UNKNOWN if url.path.startswith(_HOSTED.path) else RefKind.OUTSIDE
    return RefKind.REMOTE if url.scheme in ("http", "https") else RefKind.UNKNOWN


class Resolution:
    """Lookups of references from one document (inline or hosted) in the hosted registry."""

    def __init__(self, schema: Any, schemas: SchemaSet, base: str = INLINE_URI) -> None:
        self.schemas = schemas
        self.base = base
        registry: Registry[Any] = schemas.registry
        if schemas.get(base) is None and isinstance(schema, dict | bool):
            resource = specification_of(schema).create_resource(schema)
            registry = registry.with_resource(base, resource)
            # A malformed `$id` or subschema (linted elsewhere) stops the crawl: resolve from the root only.
            with contextlib.suppress(*MALFORMED):
                registry = registry.crawl()
        self._resolver = registry.resolver(base_uri=base)
        self._cache: dict[str, Reference] = {}

    def lookup(self, parts: Parts, ref: Any, base: str) -> Reference:
        """Resolve one `$ref` value found at `parts` under base URI `base`."""
        if not isinstance(ref, str):
            return Reference(parts, repr(ref), "", RefKind.INVALID, "a $ref must be a string")
        try:
            target = _absolute(base, ref)
            urlsplit(target)
        except ValueError as bad:
            return Reference(parts, ref, "", RefKind.INVALID, str(bad))
        known = self._cache.get(target)
        if known is None:
            known = self._resolve(target)
            self._cache[target] = known
        return Reference(parts, ref, target, known.kind, known.detail, known.suggestions, known.contents)

    def _resolve(self, target: str) -> Reference:
        try:
            resolved = self._resolver.lookup(target)
        except (PointerToNowhere, NoSuchAnchor, InvalidAnchor):
            fragment = urldefrag(target).fragment
            return Reference((), target, target, RefKind.POINTER, f"nothing is at #{fragment}")
        except MALFORMED:
            return Reference((), target, target, RefKind.POINTER, "the schema on the way is malformed")
        except Unresolvable:  # the document itself is not in the registry
            kind = _missing_kind(target)
            hints = closest_ids(target, self.schemas) if kind is RefKind.UNKNOWN else ()
            return Reference((), target, target, kind, suggestions=hints)
        return Reference((), target, target, RefKind.RESOLVED, contents=resolved.contents)

    def in_place(self, node: dict[str, Any], base: str) -> Iterator[tuple[str, Any, str]]:
        """Subschemas applied to the same instance as `node`: (label, subschema, its base)."""
        if "$ref" in node:
            found = self.lookup((), node["$ref"], base)
            if found.kind is RefKind.RESOLVED and isinstance(found.contents, dict):
                yield found.ref, found.contents, urldefrag(found.target).url or base
        for key in _IN_PLACE_VALUES:
            yield from _with_base(key, node.get(key), base)
        for key in _IN_PLACE_LISTS:
            items = node.get(key)
            for index, sub in enumerate(items if isinstance(items, list) else ()):
                yield from _with_base(f"{key}/{index}", sub, base)
        for key in _IN_PLACE_MAPS:
            entries = node.get(key)
            for name, sub in entries.items() if isinstance(entries, dict) else ():
                yield from _with_base(f"{key}/{name}", sub, base)


def _with_base(label: str, sub: Any, base: str) -> Iterator[tuple[str, Any, str]]:
    if isinstance(sub, dict):
        yield label, sub, rebase(base, sub)


def analyse(schema: Any, schemas: SchemaSet, base: str = INLINE_URI, walked: Walk | None = None) -> RefReport:
    """Resolve every `$ref` in `schema` and find loops; never recurses and never fetches."""
    walked = walked or walk(schema, base)
    resolution = Resolution(schema, schemas, base)
    references = tuple(
        resolution.lookup((*node.parts, "$ref"), node.schema["$ref"], node.base)
        for node in walked.nodes
        if "$ref" in node.schema
    )
    return RefReport(references, tuple(_loops(walked, resolution.in_place)), walked.too_deep)


Edges = Callable[[dict[str, Any], str], Iterator[tuple[str, Any, str]]]


@dataclass
class _Frame:
    key: int
    edges: Iterator[tuple[str, Any, str]]
    label: str
    height: int = 0


def _loops(walked: Walk, edges: Edges) -> Iterator[Loop]:
    # Heights of finished nodes: the longest in-place chain below them; over the limit once reported.
    heights: dict[int, int] = {}
    for start in walked.nodes:
        if id(start.schema) not in heights:
            found = _search(start, edges, heights)
            if found is not None:
                yield found


def _search(start: SchemaNode, edges: Edges, heights: dict[int, int]) -> Loop | None:
    at = (*start.parts, "$ref") if "$ref" in start.schema else start.parts
    stack = [_Frame(id(start.schema), edges(start.schema, start.base), "")]
    on_stack = {id(start.schema): 0}
    while stack:
        frame = stack[-1]
        step = next(frame.edges, None)
        if step is None:
            stack.pop()
            del on_stack[frame.key]
            heights[frame.key] = frame.height + 1
            if stack:
                stack[-1].height = max(stack[-1].height, frame.height + 1)
            continue
        label, sub, sub_base = step
        key = id(sub)
        chain = (*tuple(f.label for f in stack[1:]), label)
        if key in on_stack:
            _give_up(start, edges, heights)
            return Loop(at, LoopKind.CYCLE, chain)
        if key in heights:
            if heights[key] > MAX_REF_CHAIN:
                _give_up(start, edges, heights)
                return None  # the same over-long chain was reported from an earlier start
            if len(stack) + heights[key] > MAX_REF_CHAIN:
                _give_up(start, edges, heights)
                return Loop(at, LoopKind.TOO_DEEP, chain[:3])
            frame.height = max(frame.height, heights[key])
            continue
        if len(stack) >= MAX_REF_CHAIN:
            _give_up(start, edges, heights)
            return Loop(at, LoopKind.TOO_DEEP, chain[:3])
        on_stack[key] = len(stack)
        stack.append(_Frame(key, edges(sub, sub_base), label))
    return None


def _give_up(start: SchemaNode, edges: Edges, heights: dict[int, int]) -> None:
    # Everything reachable from a reported start shares its problem: mark it so it is reported once.
    pending: list[tuple[Any, str]] = [(start.schema, start.base)]
    while pending:
        node, base = pending.pop()
        if heights.get(id(node)) == MAX_REF_CHAIN + 1:
            continue
        heights[id(node)] = MAX_REF_CHAIN + 1
        pending.extend((sub, sub_base) for _, sub, sub_base in edges(node, base))
