"""The typed-record codec of every message between the generator and its worker: a message is a
frozen dataclass whose fields are its JSON fields, encoded plainly (bytes as base64) and decoded
against their declared types; anything not as declared is `Malformed`."""

import base64
import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self, TypeVar

KIND = "event"  # the JSON field naming a message's kind
T = TypeVar("T")


class Malformed(ValueError):
    """A message that is not as its declaration says."""


class Message:
    """A declared message: `KIND` names it on the wire, the dataclass fields are its fields."""

    __slots__ = ()
    KIND: ClassVar[str]

    def encode(self) -> dict[str, Any]:
        """The JSON object of the message (bytes fields as base64; an event's blob travels apart)."""
        return {KIND: self.KIND, **_plain_fields(self)}

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> Self:
        """The message from its JSON object; Malformed when a field is missing, unknown or mistyped."""
        if data.get(KIND) != cls.KIND:
            raise Malformed(f"not a {cls.KIND} message")
        return _build(cls, {k: v for k, v in data.items() if k != KIND})


def fields_of(cls: type) -> tuple[tuple[str, Callable[[Any], Any], bool], ...]:
    """(JSON field, checker, required) per field; an event's `blob` is not a JSON field."""
    found = _SCHEMAS.get(cls)
    if found is None:
        found = tuple(
            (f.name, _checker(f.type), f.default is dataclasses.MISSING)
            for f in dataclasses.fields(cls)
            if f.name != "blob"
        )
        _SCHEMAS[cls] = found
    return found


_SCHEMAS: dict[type, tuple[tuple[str, Callable[[Any], Any], bool], ...]] = {}


def _build(cls: type[T], data: Mapping[str, Any]) -> T:
    declared = fields_of(cls)
    unknown = set(data) - {name for name, _check, _required in declared}
    if unknown:
        raise Malformed(f"unexpected field {sorted(unknown)[0]!r}"[:200])
    values = {}
    for name, check, required in declared:
        if name in data:
            try:
                values[name] = check(data[name])
            except Malformed as problem:
                raise Malformed(f"field {name!r}: {problem}") from None
        elif required:
            raise Malformed(f"missing field {name!r}")
    return cls(**values)


def _checker(annotation: Any) -> Callable[[Any], Any]:
    """A function that returns a JSON value as the declared type, or raises Malformed."""
    if annotation is Any:
        return lambda value: value
    if annotation in (str, int, bool, type(None)):
        return lambda value: _exactly(annotation, value)
    if annotation is bytes:
        return _from_base64
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        record = annotation
        return lambda value: _build(record, _exactly(dict, value))
    origin, arguments = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (types.UnionType, typing.Union):
        return _union([_checker(argument) for argument in arguments])
    if origin is list:
        item = _checker(arguments[0])
        return lambda value: [item(entry) for entry in _exactly(list, value)]
    if origin is tuple:
        return _tuple(arguments)
    if origin is dict and arguments[0] is str:
        entry = _checker(arguments[1])
        return lambda value: {_exactly(str, k): entry(v) for k, v in _exactly(dict, value).items()}
    raise TypeError(f"a message field cannot be declared as {annotation!r}")


def _exactly(kind: type[T], value: Any) -> T:
    # type(), not isinstance: JSON true is not an int here
    if type(value) is not kind:
        raise Malformed(f"expected {kind.__name__}, got {type(value).__name__}")
    return value


def _from_base64(value: Any) -> bytes:
    try:
        return base64.b64decode(_exactly(str, value), validate=True)
    except ValueError:
        raise Malformed("expected base64") from None


def _union(arms: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        problems = []
        for arm in arms:
            try:
                return arm(value)
            except Malformed as problem:
                problems.append(str(problem))
        raise Malformed(" or ".join(problems)[:300])

    return check


def _tuple(arguments: tuple[Any, ...]) -> Callable[[Any], Any]:
    if len(arguments) == 2 and arguments[1] is Ellipsis:
        item = _checker(arguments[0])
        return lambda value: tuple(item(entry) for entry in _exactly(list, value))
    items = [_checker(argument) for argument in arguments]

    def check(value: Any) -> tuple[Any, ...]:
        entries = _exactly(list, value)
        if len(entries) != len(items):
            raise Malformed(f"expected {len(items)} items, got {len(entries)}")
        return tuple(item(entry) for item, entry in zip(items, entries, strict=True))

    return check


def _plain_fields(record: Any) -> dict[str, Any]:
    return {name: _plain(getattr(record, name)) for name in _names(type(record))}


def _names(cls: type) -> tuple[str, ...]:
    """The JSON fields of a record class, from its declaration found once (`fields_of`): each
    example's child encodes several events, and it starts cold (forked), so every lookup it
    repeats shows in the time of a run."""
    return tuple(name for name, _check, _required in fields_of(cls))


_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain_fields(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def table(*classes: type[Message]) -> dict[str, type[Message]]:
    return {cls.KIND: cls for cls in classes}


def decode(data: Any, kinds: Mapping[str, type[Message]]) -> Message:
    """One of `kinds` from a decoded JSON value; Malformed for anything else."""
    if not isinstance(data, dict) or not isinstance(data.get(KIND), str):
        raise Malformed("not a JSON object with a kind")
    cls = kinds.get(data[KIND])
    if cls is None:
        raise Malformed(f"unknown kind {data[KIND][:50]!r}")
    return cls.decode(data)
