"""An `_invoke` the SDK cannot iterate (T018): `async def`, or a plain function that returns a
message, a dictionary, text or nothing instead of yielding messages, found without running.

The SDK hands what `_invoke` returns to `yield from`, in a plain generator, and sends each item as a
message. A coroutine or an async generator cannot be iterated there; a single message, a dictionary
or text is iterated field by field, key by key or letter by letter; None not at all.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.own_attributes import named_in_call
from generator.check.plugin_code import plugin_code
from generator.check.sdk_file import PYDANTIC_API, own_nodes
from generator.check.undeclared import Function, invoke_of, tool_invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, Phrase, rule

INVOKE_NOT_ITERABLE = rule(
    "T018",
    "invoke-not-a-generator",
    Severity.ERROR,
    "tool {tool}'s `_invoke` {is_!s}: the SDK passes what it returns to `yield from`, so {outcome!s},"
    " on every call",
    "{fix!s}",
    """
`Tool.invoke` returns `self._invoke(tool_parameters)` and the SDK's executor runs
`yield from tool.invoke(request.tool_parameters)` inside a plain generator
(`dify_plugin/interfaces/tool/tool.py`, `dify_plugin/core/plugin_executor.py`, `invoke_tool`),
sending each item it gets to Dify as a message. So `_invoke` must give an iterable of messages:
a generator (a `def` with `yield`), or a list of messages.

- `async def _invoke` gives a coroutine (`cannot 'yield from' a coroutine object in a
  non-coroutine generator`) or, with `yield`, an async generator (`'async_generator' object is not
  iterable`): TypeError before any message, on every call. Tried on Python 3.12.
- A plain `def _invoke` without `yield` that returns one message (`return
  self.create_text_message(...)`) hands `yield from` a pydantic model, which iterates as its
  `(field, value)` pairs, none of them a message (the run's R014); a dictionary gives its keys,
  text its letters; `return` without a value, or the end of the function, gives None
  (`'NoneType' object is not iterable`).

The check reads the `_invoke` of each tool's class and reports an `async def`, or, for a function
without `yield`, each `return` of a message helper's call, a dictionary, text or nothing, and a
body that can reach its end. A `return` of anything else (a list, a helper's generator) is left
alone.
""",
)
SIGNATURE_REFUSED = rule(
    "T019",
    "invoke-signature-refused",
    Severity.ERROR,
    "tool {tool}'s `_invoke({parameters})` cannot take the SDK's call `self._invoke(tool_parameters)`:"
    " {problem!s}, so every call fails with TypeError before the tool runs",
    "Write `def _invoke(self, tool_parameters: dict[str, Any])`; the user is `self.runtime.user_id`.",
    """
The SDK calls a tool as `self._invoke(tool_parameters)`, one positional argument after `self`
(`Tool.invoke` in `dify_plugin/interfaces/tool/tool.py`: `return self._invoke(tool_parameters)`).
An `_invoke` whose parameters cannot bind that call fails with TypeError on every call: most often
the signature of the tools built into Dify before plugins, `_invoke(self, user_id, tool_parameters)`
("missing 1 required positional argument"), kept by a port; also `_invoke(self)` ("takes 1
positional argument but 2 were given") or a keyword-only dictionary. The check reads the `_invoke`
of each tool's class: an error when its positional parameters after `self` cannot take exactly one
argument (more than one without a default, or none and no `*args`), or a keyword-only parameter
has no default. It reads too the `_invoke` of a class deriving from `Tool` in a module of the
plugin that no tool YAML names (its YAML lacks `extra.python.source`, which the schema reports,
or names another file): a warning there, since the SDK does not load that class yet, but each call
will fail the day the YAML names it.
""",
)
RUNTIME_ATTRIBUTE = rule(
    "T020",
    "runtime-attribute-missing",
    Severity.ERROR,
    "self.runtime.{attribute}: the SDK's ToolRuntime has no attribute {attribute} (it has {fields}), so every"
    " call that reaches this line fails with AttributeError, whatever the inputs",
    "{fix!s}",
    """
A plugin tool's `self.runtime` is the SDK's `ToolRuntime` (`dify_plugin/entities/tool.py`), a
pydantic model with the fields `credentials`, `user_id` and `session_id` in every release read
(0.0.1b60 to 0.10.2), and `credential_type` from 0.5. The tools built into Dify before plugins had
a richer runtime (`self.runtime.tenant_id`, `invoke_from`, `runtime_parameters`...), and a port
that keeps those reads fails with AttributeError each time the line runs. The check reads the
methods of each tool's class for `self.runtime.<name>` and reports a name that is none of the
fields nor pydantic's model API; silent when the plugin assigns `self.runtime` or one of its
attributes itself, and for a name the method tests with `hasattr` or reads with `getattr` (the code
expects it may be missing).
""",
)
RUNTIME_FIELDS = frozenset({"credentials", "user_id", "session_id", "credential_type"})
# What Dify's own runtime had that a plugin's has not, with what to use instead.
RUNTIME_INSTEAD = {
    "tenant_id": "A plugin has no tenant id: remove the read, or ask the user for what it selected.",
    "runtime_parameters": "Read the parameters from `_invoke`'s `tool_parameters`.",
}
MESSAGE_HELPERS = frozenset(
    {
        "create_text_message",
        "create_json_message",
        "create_blob_message",
        "create_image_message",
        "create_link_message",
        "create_variable_message",
        "create_log_message",
    }
)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """T018 for each tool whose `_invoke` the SDK cannot iterate; T019 for a signature it cannot
    call, in every tool's class and in the plugin's other Tool subclasses."""
    yield from _unlinked_signatures(loaded)
    for tool, file, tree, invoke in tool_invokes(loaded):
        display = loaded.display_path(file)
        cls = next(node for node in tree.body if isinstance(node, ast.ClassDef) and invoke in node.body)
        for read in _runtime_reads(cls):
            yield RUNTIME_ATTRIBUTE.at(
                Location(display, read.lineno, read.col_offset + 1),
                attribute=read.attr,
                fields=Listing(sorted(RUNTIME_FIELDS)),
                fix=Phrase(
                    RUNTIME_INSTEAD.get(read.attr, "Use one of the runtime's fields, or remove the read.")
                ),
            )
        problem = _signature_problem(invoke.args)
        if problem is not None:
            yield SIGNATURE_REFUSED.at(
                Location(display, invoke.lineno, invoke.col_offset + 1),
                tool=tool.name,
                parameters=ast.unparse(invoke.args)[:60],
                problem=Phrase(problem),
            )
            continue
        if isinstance(invoke, ast.AsyncFunctionDef):
            generator = any(isinstance(n, ast.Yield | ast.YieldFrom) for n in own_nodes(invoke))
            yield INVOKE_NOT_ITERABLE.at(
                Location(display, invoke.lineno, invoke.col_offset + 1),
                tool=tool.name,
                is_=Phrase("is `async def`"),
                outcome=Phrase(
                    "the async generator it gives fails with TypeError (not iterable)"
                    if generator
                    else "the coroutine it gives fails with TypeError (cannot 'yield from' a coroutine)"
                ),
                fix=Phrase(
                    "Write `def _invoke` (not `async def`) and yield each message; run async work"
                    " with `asyncio.run`."
                ),
            )
            continue
        if any(isinstance(n, ast.Yield | ast.YieldFrom) for n in own_nodes(invoke)):
            continue
        bad = list(_bad_returns(invoke))
        if bad:
            node, given, outcome = bad[0]
            others = [str(other.lineno) for other, _, _ in bad[1:]]
            yield INVOKE_NOT_ITERABLE.at(
                Location(display, node.lineno, node.col_offset + 1),
                tool=tool.name,
                is_=Phrase(f"returns {given} instead of yielding messages"),
                outcome=Phrase(
                    outcome
                    + (
                        f" (also at lines {Listing(others, most=6)})"
                        if len(others) > 1
                        else f" (also at line {others[0]})"
                        if others
                        else ""
                    )
                ),
                fix=Phrase(
                    "Yield each message (`yield self.create_text_message(...)`); `_invoke` is a generator."
                ),
            )


def _runtime_reads(cls: ast.ClassDef) -> Iterator[ast.Attribute]:
    """`self.runtime.<name>` reads in the class's methods of a name ToolRuntime lacks; none when the
    class assigns `self.runtime` or an attribute of it."""
    found: list[ast.Attribute] = []
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) or not method.args.args:
            continue
        me = method.args.args[0].arg
        nodes = own_nodes(method)
        # `hasattr(self.runtime, "get_file")` first: the code expects the name may be missing
        probed = {named for n in nodes if (named := named_in_call(n, ("hasattr", "getattr")))}
        for node in nodes:
            if isinstance(node, ast.Attribute) and _is_runtime(node.value, me):
                if not isinstance(node.ctx, ast.Load):
                    return
                if node.attr not in RUNTIME_FIELDS | PYDANTIC_API | probed and not node.attr.startswith(
                    ("model_", "_")
                ):
                    found.append(node)
            elif (
                isinstance(node, ast.Attribute)
                and node.attr == "runtime"
                and not isinstance(node.ctx, ast.Load)
            ):
                return
    yield from found


def _is_runtime(node: ast.expr, me: str) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "runtime"
        and isinstance(node.value, ast.Name)
        and node.value.id == me
    )


def _unlinked_signatures(loaded: LoadedPlugin) -> Iterator[Finding]:
    """T019, a warning, for the `_invoke` of a Tool subclass in a module no tool YAML names: the
    tool is not loaded yet (its YAML lacks `extra.python.source`, or names another file), and will
    fail once it is."""
    if loaded.plugin is None:
        return
    linked = {tool.source.removeprefix("./") for tool in loaded.plugin.tools}
    for _module, (relative, tree) in sorted(plugin_code(loaded).modules.items()):
        invoke = invoke_of(tree) if relative not in linked else None
        problem = _signature_problem(invoke.args) if invoke is not None else None
        if invoke is None or problem is None:
            continue
        cls = next(node for node in tree.body if isinstance(node, ast.ClassDef) and invoke in node.body)
        yield SIGNATURE_REFUSED.at(
            Location(loaded.display_path(relative), invoke.lineno, invoke.col_offset + 1),
            Severity.WARNING,
            f"No tool YAML names {relative} as its `extra.python.source` yet, so the SDK does not load"
            " this class; once one does, every call fails. Write `def _invoke(self, tool_parameters:"
            " dict[str, Any])`; the user is `self.runtime.user_id`.",
            tool=cls.name,
            parameters=ast.unparse(invoke.args)[:60],
            problem=Phrase(problem),
        )


def _signature_problem(arguments: ast.arguments) -> str | None:
    """Why `self._invoke(tool_parameters)` cannot bind to these parameters, or None when it can."""
    positional = [*arguments.posonlyargs, *arguments.args][1:]  # after `self`
    required = len(positional) - len(arguments.defaults)
    keyword = [a.arg for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d is None]
    if keyword:
        return f"keyword-only {', '.join(keyword)} has no default"
    if required > 1:
        missing = ", ".join(a.arg for a in positional[1:required])
        return f"it requires {required} arguments and {missing} gets none"
    if not positional and arguments.vararg is None:
        return "it takes no argument after self"
    return None


def _bad_returns(invoke: Function) -> Iterator[tuple[ast.stmt, str, str]]:
    """Each `return` whose value `yield from` cannot take, in the order met, then the function's end
    when it can be reached."""
    returns = sorted((n for n in own_nodes(invoke) if isinstance(n, ast.Return)), key=lambda n: n.lineno)
    for node in returns:
        found = _judged(node.value)
        if found is not None:
            yield node, *found
    if _completes(invoke.body):
        yield (
            invoke.body[-1],
            "nothing at its end",
            "`yield from None` fails with TypeError ('NoneType' object is not iterable)",
        )


def _judged(value: ast.expr | None) -> tuple[str, str] | None:
    if value is None or (isinstance(value, ast.Constant) and value.value is None):
        return "None", "`yield from None` fails with TypeError ('NoneType' object is not iterable)"
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in MESSAGE_HELPERS
    ):
        return (
            "one message",
            "it iterates the message's fields, which are no messages, and the SDK fails to send them",
        )
    if isinstance(value, ast.Dict | ast.DictComp):
        return "a dictionary", "each of its keys is sent as a message, and the SDK fails to send it"
    if isinstance(value, ast.JoinedStr) or (isinstance(value, ast.Constant) and isinstance(value.value, str)):
        return "text", "each letter is sent as a message, and the SDK fails to send it"
    return None


def _completes(body: list[ast.stmt]) -> bool:
    """True when running `body` can reach its end, read plainly: a `return` or `raise` ends it, an
    `if` ends when both branches do, a `try` when its body (and `else`) and every handler do, or its
    `finally` does; a `while True:` without `break` never ends."""
    return all(_statement_completes(statement) for statement in body)


def _statement_completes(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Return | ast.Raise):
        return False
    if isinstance(statement, ast.If):
        return _completes(statement.body) or not statement.orelse or _completes(statement.orelse)
    if isinstance(statement, ast.Try | ast.TryStar):
        if statement.finalbody and not _completes(statement.finalbody):
            return False
        return _completes([*statement.body, *statement.orelse]) or any(
            _completes(h.body) for h in statement.handlers
        )
    if isinstance(statement, ast.With | ast.AsyncWith):
        return _completes(statement.body)
    if isinstance(statement, ast.While) and isinstance(statement.test, ast.Constant) and statement.test.value:
        return any(isinstance(node, ast.Break) for node in ast.walk(statement))
    return True
