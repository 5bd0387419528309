"""Images re-encoded as JPEG that cannot be or are labelled otherwise (R151): an image opened with
Pillow and saved as JPEG with no conversion to RGB (an uploaded PNG with alpha makes Pillow raise),
and a blob of bytes re-encoded in one fixed format but labelled with the input file's MIME type.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import every_node, tool_module_tree
from generator.check.message_payloads import blob_meta
from generator.check.passed_on import Scope, resolve, scope_of
from generator.check.plugin_code import Function, plugin_code, reachable_modules
from generator.check.select_options import SELECT, reaches
from generator.check.undeclared import invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

JPEG_MISFIT = rule(
    "R151",
    "image-saved-as-jpeg-misfit",
    Severity.WARNING,
    "`{call}` re-encodes an image as JPEG{when!s}, but {problem!s}",
    "{fix!s}",
    """
JPEG has no alpha channel and no palette: Pillow's JPEG writer refuses any other mode than `1`,
`L`, `RGB`, `CMYK` and a few more, `Image.save` raising `OSError: cannot write mode RGBA as JPEG`
(also `P`, `LA`, `I;16`; run with Pillow 12.3). `Image.open` keeps the file's own mode, and
`resize`, `thumbnail`, `rotate`, `crop` keep it too, so an uploaded PNG with transparency or a
palette (most screenshots and logos, every GIF) makes the tool fail whenever JPEG is the format,
unless the code converts first (`img.convert("RGB")`, or pastes on a background).

The other half: Dify keeps the MIME type a blob's meta gives as the file's type
(`ToolFileMessageTransformer` in api/core/tools/utils/message_transformer.py: `mimetype =
meta.get("mime_type", "application/octet-stream")`, stored by `ToolFileManager.create_file_by_raw`
with `extension = guess_extension(mimetype)`). Bytes re-encoded as JPEG but labelled with the input
file's `mime_type` come back typed `image/png` or `image/webp` with JPEG inside, and named so.

Found without running, in the functions of the modules the SDK loads: a name bound to `Image.open`
(PIL's `Image`, under any alias; also in a `with ... as img`), or to what `resize`, `rotate`,
`crop`, `transpose`, `filter`, `copy`, `reduce`, `ImageOps.exif_transpose` or a conversion to a mode
with alpha (`convert("RGBA")`) make of it, saved with the format `"JPEG"`/`"JPG"` (any case, by
`format=`, the second argument or a `.jpg` file name) or with a format taken from a select parameter
that offers `jpeg` or `jpg` (followed from `_invoke`, as R076 follows a select's value; the finding
names the option); the function is left alone when it converts an image (`.convert(...)`, but to
`RGBA`, `LA` or `P`), reads `.mode`, or handles the alpha itself (an image's `split`, `getchannel`,
`alpha_composite`, `paste`). And `create_blob_message`'s literal meta whose `mime_type` is a file's
`.mime_type`, when the blob's bytes come from a `.getvalue()` of a buffer the function saves into
with one fixed format, or from a call of the plugin's own function whose every `save` uses one fixed
format. Warnings: only some inputs fail, or get a wrong type.
""",
)
# Methods of a Pillow image that give a new image of the same mode.
_SAME_MODE = frozenset(
    {"resize", "rotate", "crop", "transpose", "filter", "copy", "reduce", "exif_transpose"}
)
# What a function does that shows it minds the mode or the alpha channel.
_MINDS_MODE = frozenset({"convert", "getchannel", "alpha_composite", "paste"})
_JPEG = frozenset({"jpeg", "jpg"})
# Modes JPEG cannot hold that code converts to on purpose (to draw with transparency).
_ALPHA_MODES = frozenset({"RGBA", "LA", "P", "PA", "RGBa", "La"})


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R151: JPEG saves without conversion, and blobs labelled with the input's type."""
    code = plugin_code(loaded)
    told: set[int] = set()
    for invoke in invokes(loaded, loaded.plugin.tools if loaded.plugin else ()):
        module = tool_module_tree(loaded, invoke.tool)
        if module is None:
            continue
        scope = scope_of(loaded, *module)
        for parameter in invoke.tool.parameters:
            offered = [o.value for o in parameter.options if o.value.lower() in _JPEG]
            if parameter.type != SELECT or not offered:
                continue
            for reach in reaches(invoke, scope, parameter.name, every_call=False):
                when = Phrase(f" when option `{offered[0]}` of select parameter `{parameter.name}` is picked")
                for save in _unconverted_saves(reach.function, reach.scope.tree, reach.names):
                    if id(save) not in told:
                        told.add(id(save))
                        yield _unconverted(save, reach.scope.display, when)
    for module_name in reachable_modules(loaded, code):
        relative, tree = code.modules[module_name]
        scope = scope_of(loaded, relative, tree)
        for node in every_node(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for save in _unconverted_saves(node, tree, frozenset()):
                    if id(save) not in told:
                        told.add(id(save))
                        yield _unconverted(save, scope.display, Phrase(""))
                yield from _mislabelled(node, scope)


def _unconverted(save: ast.Call, display: str, when: Phrase) -> Finding:
    return JPEG_MISFIT.at(
        Location(display, save.lineno, save.col_offset + 1),
        call=ast.unparse(save.func),
        when=when,
        problem=Phrase(
            'nothing converts it to RGB first: Pillow raises OSError ("cannot write mode RGBA as'
            ' JPEG") for an image with alpha or a palette (most PNGs, every GIF)'
        ),
        fix=Phrase('Convert first: `img = img.convert("RGB")` when `img.mode` is not `RGB` or `L`.'),
    )


def _pillow_names(tree: ast.AST) -> frozenset[str]:
    """The names PIL's `Image` module goes by in the module (`Image`, `PILImage`, `PIL.Image`)."""
    names = {"PIL.Image"}
    for node in every_node(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "PIL":
            names.update(alias.asname or alias.name for alias in node.names if alias.name == "Image")
    return frozenset(names)


def _images(function: Function, pillow: frozenset[str]) -> frozenset[str]:
    """Names the function binds to an image `Image.open` gives, or to one of the same mode made
    from it."""
    images: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in every_node(function):
            made: ast.expr | None = None
            target: ast.expr | None = None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                made, target = node.value, node.targets[0]
            elif isinstance(node, ast.withitem):
                made, target = node.context_expr, node.optional_vars
            if not isinstance(target, ast.Name) or target.id in images or not isinstance(made, ast.Call):
                continue
            if _image_made(made, frozenset(images), pillow):
                images.add(target.id)
                changed = True
    return frozenset(images)


def _image_made(made: ast.expr, images: frozenset[str], pillow: frozenset[str]) -> bool:
    """True when `made` gives an image `Image.open` gave, or one of the same mode (or with alpha)
    made from one: an opened image's `convert("RGBA")`, `img.resize(...)`."""
    if isinstance(made, ast.Name):
        return made.id in images
    if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Attribute)):
        return False
    func = made.func
    if func.attr == "open" and ast.unparse(func.value) in pillow:
        return not _local_file(made)
    if func.attr in _SAME_MODE or _to_alpha(made):
        sources = [func.value, *made.args[:1]]
        return any(_image_made(source, images, pillow) for source in sources)
    return False


def _local_file(opened: ast.Call) -> bool:
    """True when `Image.open` is given a string constant: a file of the plugin's, whose mode is known."""
    return bool(opened.args) and isinstance(opened.args[0], ast.Constant)


def _unconverted_saves(function: Function, tree: ast.Module, holders: frozenset[str]) -> Iterator[ast.Call]:
    """`img.save(...)` calls that write an opened image as JPEG (with `holders`: in a format taken
    from one of those names; without: a constant JPEG format) in a function that never minds the
    image's mode."""
    images = _images(function, _pillow_names(tree))
    if not images or _minds_mode(function, images):
        return
    for node in every_node(function):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "save"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in images
        ):
            continue
        written = _format_of(node)
        if written is None:
            continue
        if holders:
            if any(isinstance(part, ast.Name) and part.id in holders for part in every_node(written)):
                yield node
        elif _is_jpeg(written):
            yield node


def _format_of(save: ast.Call) -> ast.expr | None:
    """The format a `save` is given: `format=`, the second argument, else the file name."""
    given = next((k.value for k in save.keywords if k.arg == "format"), None)
    if given is None and len(save.args) > 1:
        given = save.args[1]
    if given is None and save.args:
        given = save.args[0]
    return given


def _is_jpeg(written: ast.expr) -> bool:
    """A constant JPEG format, or a constant file name ending in `.jpg` or `.jpeg`."""
    if not (isinstance(written, ast.Constant) and isinstance(written.value, str)):
        return False
    text = written.value.lower()
    return text in _JPEG or (text.rsplit(".", 1)[-1] in _JPEG and "." in text)


def _minds_mode(function: Function, images: frozenset[str]) -> bool:
    """True when the function converts an image, reads a mode or handles the alpha channel
    (`split` only on an image: on a string it is a string's)."""
    for node in every_node(function):
        if not isinstance(node, ast.Attribute):
            continue
        if node.attr == "mode" or (node.attr in _MINDS_MODE and not _converts_to_alpha(node, function)):
            return True
        if node.attr == "split" and isinstance(node.value, ast.Name) and node.value.id in images:
            return True
    return False


def _to_alpha(call: ast.Call) -> bool:
    """True for `img.convert("RGBA")` and other conversions to a mode JPEG cannot hold."""
    return (
        isinstance(call.func, ast.Attribute)
        and call.func.attr == "convert"
        and bool(call.args)
        and isinstance(call.args[0], ast.Constant)
        and call.args[0].value in _ALPHA_MODES
    )


def _converts_to_alpha(attribute: ast.Attribute, function: Function) -> bool:
    """True when `attribute` is the function of a call that converts to a mode JPEG cannot hold."""
    calls = (node for node in every_node(function) if isinstance(node, ast.Call) and node.func is attribute)
    return any(_to_alpha(call) for call in calls)


def _fixed_format(function: Function) -> str | None:
    """The one constant format every `save` of the function uses, when there is one."""
    formats = set()
    for node in every_node(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "save":
            written = _format_of(node)
            if not (isinstance(written, ast.Constant) and isinstance(written.value, str)):
                return None
            formats.add(written.value.upper())
    return formats.pop() if len(formats) == 1 else None


def _mislabelled(function: Function, scope: Scope) -> Iterator[Finding]:
    """Blobs labelled with an input file's MIME type whose bytes were re-encoded in a fixed format."""
    for node in every_node(function):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "create_blob_message"
        ):
            continue
        meta = blob_meta(node)
        if not isinstance(meta, ast.Dict):
            continue
        mime = next(
            (
                value
                for key, value in zip(meta.keys, meta.values, strict=True)
                if isinstance(key, ast.Constant) and key.value == "mime_type"
            ),
            None,
        )
        blob = next((k.value for k in node.keywords if k.arg == "blob"), node.args[0] if node.args else None)
        if not (isinstance(mime, ast.Attribute) and mime.attr == "mime_type") or not isinstance(
            blob, ast.Name
        ):
            continue
        made = _made_by(function, blob.id)
        if made is None:
            continue
        if isinstance(made.func, ast.Attribute) and made.func.attr == "getvalue":
            encoder: Function | None = function  # `img.save(buffer, "JPEG")` then `buffer.getvalue()`
        else:
            target = resolve(made, function, scope)
            encoder = target[0] if target is not None else None
        fixed = _fixed_format(encoder) if encoder is not None else None
        if encoder is None or fixed is None or fixed.lower() not in _JPEG:
            continue
        yield JPEG_MISFIT.at(
            Location(scope.display, mime.lineno, mime.col_offset + 1),
            call=f"{encoder.name}()",
            when=Phrase(""),
            problem=Phrase(
                f"the blob made of its bytes is labelled with the input's type (`{ast.unparse(mime)}`):"
                " a PNG or WebP input comes back typed as PNG or WebP with JPEG bytes"
            ),
            fix=Phrase('Label the blob `"image/jpeg"`, or save in the input\'s format.'),
        )


def _made_by(function: Function, name: str) -> ast.Call | None:
    """The call `name` is bound to, alone or as the first item of a tuple, once in the function."""
    found: list[ast.Call] = []
    for node in every_node(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call):
            target = node.targets[0]
            first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
            if isinstance(first, ast.Name) and first.id == name:
                found.append(node.value)
    return found[0] if len(found) == 1 else None
