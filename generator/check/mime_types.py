"""File extensions paired with another format's MIME type (R149): a table in the code that maps
`"png"` to `"image/webp"`, an `if ext == "png":` branch that sets `"image/webp"`, or a blob whose meta
names `out.png` and types it `image/jpeg`. Dify stores and shows the file as the type the tool
says, so the file is labelled as another format than its bytes and its name.

The table is Python's own `mimetypes` (its built-in defaults, not the machine's /etc/mime.types, so
that a finding does not depend on where the validator runs).
"""

from __future__ import annotations

import ast
import mimetypes
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from generator.check import CheckContext
from generator.check.common import string_entries
from generator.check.message_payloads import blob_meta
from generator.check.plugin_code import plugin_code, reachable_modules
from generator.check.sdk_calls import sdk_object_calls
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

MIME_MISMATCH = rule(
    "R149",
    "extension-mime-mismatch",
    Severity.WARNING,
    "{place} pairs the extension `.{extension}` with the MIME type `{mime}`, which is the type of"
    " {formats}, not of `.{extension}` files (`{expected}`): Dify stores and serves the file as `{mime}`",
    "Use `{expected}` for `.{extension}` (or `mimetypes.guess_type(filename)`).",
    """
Dify keeps the MIME type a tool gives a blob as the file's type: `ToolFileMessageTransformer`
(api/core/tools/utils/message_transformer.py) reads `mimetype = meta.get("mime_type",
"application/octet-stream")` and hands it to `ToolFileManager.create_file_by_raw`
(api/core/tools/tool_file_manager.py), which stores the bytes under `extension =
guess_extension(mimetype) or ".bin"` and records `mimetype=mimetype` while the file keeps the name
it was given (`present_filename = filename if has_extension else f"{filename}{extension}"`); the
transformer then decides from the type alone whether the file is an image (`if "image" in
mimetype`). A PNG labelled `image/webp` becomes a file named `photo.png`, typed WebP, stored as
`.webp`: a browser or a model that trusts the type (a vision model given a data URL, a download)
reads PNG bytes as WebP; a `.docx` typed as a PDF is refused by the next node.

Found without running, with Python's `mimetypes` table (built-in defaults only, strict and common
types): a dictionary literal (or a list of pairs) that maps extensions (`"png"` or `".png"`) to MIME
types, or MIME types to extensions, when at least two other entries agree with the table (so it is a
table of file types); a chain of `if`/`elif` branches that test an extension (`ext == "png"`, `ext
in ("jpg", "jpeg")`, `name.endswith(".png")`) and only set or return a MIME type, with two agreeing
branches; and `create_blob_message`'s literal meta whose `filename` (a string, or an f-string ending
in `.ext`) and `mime_type` disagree. A pair is reported when `mimetypes` knows both the extension's
type and the MIME type's extensions, the extension is not one of them, and the two types differ by
more than the `x-` prefix or `text/` against `application/` (`text/xml` and `application/xml`,
`audio/wav` and `audio/x-wav`, `image/jpg` for `.jpg` are all accepted). Left alone: types the table
does not know (`text/markdown`, `application/x-yaml`, `audio/mp4`, the Office formats on Python
3.11), extensions it does not know, and the catch-all types `text/plain` and
`application/octet-stream`, which any file may carry. A warning: the tool answers, with a file
labelled as another format.
""",
)
# An extension as a table key or a test writes it: letters and digits, with or without the dot.
_EXTENSION = re.compile(r"\.?([A-Za-z0-9]{1,5})")
# A MIME type: type/subtype, as a table or a meta writes it.
_MIME = re.compile(r"[a-z]+/[A-Za-z0-9.+-]+")
# Types any file of its kind may carry: naming them is vague, never wrong.
_CATCH_ALL = frozenset({"application/octet-stream", "binary/octet-stream", "text/plain"})
# Entries of the same table that agree with `mimetypes`, so that it is a table of file types.
_AGREEING = 2
# Python's built-in table, without the machine's mime.types files.
_TABLE = mimetypes.MimeTypes()


@dataclass(frozen=True, slots=True)
class _Pair:
    """An extension and a MIME type written together, where it was written."""

    extension: str
    mime: str
    where: Location


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R149 in the dictionaries, `if` chains and blob metas of the modules the SDK loads."""
    code = plugin_code(loaded)
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        display = loaded.display_path(relative)
        inner: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict | ast.List | ast.Tuple):
                place = "This dictionary entry" if isinstance(node, ast.Dict) else "This list item"
                yield from _table(list(_dict_pairs(node, display)), place)
            elif isinstance(node, ast.If) and id(node) not in inner:
                yield from _table(list(_chain_pairs(node, display, inner)), "This branch")
    for found in sdk_object_calls(loaded):
        if found.path == "create_blob_message":
            pair = _meta_pair(blob_meta(found.call), found.display)
            if pair is not None and _agrees(pair.extension, pair.mime) is False:
                yield _finding(pair, "This blob's meta")


def _finding(pair: _Pair, place: str) -> Finding:
    expected = _TABLE.guess_type(f"x.{pair.extension}", strict=False)[0] or ""
    extensions = _TABLE.guess_all_extensions(pair.mime, strict=False)
    formats = ", ".join(f"`{extension}`" for extension in extensions)
    return MIME_MISMATCH.at(
        pair.where, place=place, extension=pair.extension, mime=pair.mime, expected=expected, formats=formats
    )


def _table(pairs: list[_Pair], place: str) -> Iterator[Finding]:
    """The pairs that disagree with `mimetypes`, when enough others agree."""
    verdicts = [(pair, _agrees(pair.extension, pair.mime)) for pair in pairs]
    if sum(1 for _, verdict in verdicts if verdict) < _AGREEING:
        return
    for pair, verdict in verdicts:
        if verdict is False:
            yield _finding(pair, place)


def _pair(extension: str, mime: str, where: Location) -> _Pair | None:
    """The pair when `extension` and `mime` look like an extension and a MIME type."""
    written = _EXTENSION.fullmatch(extension)
    if written is None or not _MIME.fullmatch(mime):
        return None
    return _Pair(written.group(1).lower(), mime.lower(), where)


def _dict_pairs(node: ast.Dict | ast.List | ast.Tuple, display: str) -> Iterator[_Pair]:
    """The entries of a dictionary literal that map an extension to a MIME type, or the reverse."""
    for key, first, second in string_entries(node):
        where = Location(display, key.lineno, key.col_offset + 1)
        pair = _pair(first, second, where) or _pair(second, first, where)
        if pair is not None:
            yield pair


def _chain_pairs(node: ast.If, display: str, inner: set[int]) -> Iterator[_Pair]:
    """The branches of an `if`/`elif` chain that test extensions and only set or return a MIME
    type, as one pair for each extension tested."""
    branch: ast.If | None = node
    while branch is not None:
        mime = _set_mime(branch.body)
        if mime is not None:
            for extension in _tested_extensions(branch.test):
                pair = _pair(extension, mime, Location(display, branch.lineno, branch.col_offset + 1))
                if pair is not None:
                    yield pair
        following = branch.orelse
        branch = following[0] if len(following) == 1 and isinstance(following[0], ast.If) else None
        if branch is not None:
            inner.add(id(branch))


def _set_mime(body: list[ast.stmt]) -> str | None:
    """The one MIME type a branch's body sets or returns, when it does nothing else but set
    constants."""
    found: set[str] = set()
    for statement in body:
        value = statement.value if isinstance(statement, ast.Assign | ast.Return | ast.AnnAssign) else None
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str | int | float | bool)):
            return None
        if isinstance(value.value, str) and _MIME.fullmatch(value.value):
            found.add(value.value)
    return found.pop() if len(found) == 1 else None


def _tested_extensions(test: ast.expr) -> list[str]:
    """The strings a branch's test compares with (`==`, `in` a literal collection) or a name's
    ending (`.endswith(...)`), of one test or of an `or` of them."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return [text for value in test.values for text in _tested_extensions(value)]
    written: ast.expr | None = None
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq | ast.In):
        written = test.comparators[0]
    elif isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "endswith":
        written = test.args[0] if len(test.args) == 1 else None
    items = written.elts if isinstance(written, ast.Tuple | ast.List | ast.Set) else [written]
    return [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]


def _meta_pair(meta: ast.expr | None, display: str) -> _Pair | None:
    """The file name's extension and the MIME type of a literal blob meta that gives both."""
    if not isinstance(meta, ast.Dict):
        return None
    values = {
        key.value: value
        for key, value in zip(meta.keys, meta.values, strict=True)
        if isinstance(key, ast.Constant) and key.value in {"filename", "mime_type"}
    }
    name, mime = values.get("filename"), values.get("mime_type")
    if isinstance(name, ast.JoinedStr) and name.values:
        name = name.values[-1]
    if not (
        isinstance(name, ast.Constant)
        and isinstance(name.value, str)
        and isinstance(mime, ast.Constant)
        and isinstance(mime.value, str)
        and "." in name.value
    ):
        return None
    where = Location(display, mime.lineno, mime.col_offset + 1)
    return _pair(name.value.rsplit(".", 1)[1], mime.value, where)


@cache
def _agrees(extension: str, mime: str) -> bool | None:
    """True when `mime` is a type of `.extension` files; False when it is another format's; None
    when the table does not know one of them or the type is a catch-all."""
    expected = _TABLE.guess_type(f"x.{extension}", strict=False)[0]
    extensions = _TABLE.guess_all_extensions(mime, strict=False)
    if expected is None or not extensions or mime in _CATCH_ALL:
        return None
    return f".{extension}" in extensions or _plain(expected) == _plain(mime)


def _plain(mime: str) -> tuple[str, str]:
    """A type without the differences that name the same format: `x-` before the subtype, and
    `text/` against `application/`."""
    major, subtype = mime.split("/", 1)
    return ("application" if major == "text" else major), subtype.removeprefix("x-")
