"""Parameters a tool reads that its YAML does not declare (R021), found in its code without running it.

Dify hands a tool only the parameters its YAML declares, so `tool_parameters["x"]` for an
undeclared `x` raises KeyError. The check reads the tool class's `_invoke` in the file the SDK
executes (rule T007) and reports such subscripts only where nothing in `_invoke` could put the key
there or guard the read: a false error costs more than a missed one, so every doubt means silence.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Container, Iterable, Iterator, Mapping
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import children, every_node, tool_module_tree
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import Listing, Phrase, rule

UNDECLARED_READ = rule(
    "R021",
    "undeclared-parameter-read",
    Severity.ERROR,
    'tool {tool} reads {dict}["{key}"], a parameter its YAML does not declare (declared: {declared}):'
    " Dify passes only declared parameters, so this raises KeyError",
    'Declare `{key}` under `parameters:` in the tool YAML, or read it with `{dict}.get("{key}")`.',
    """
Dify calls a tool with the parameters its YAML declares and no others. In a workflow, the tool
node's `ToolNode._generate_parameters` (api/core/workflow/nodes/tool/tool_node.py) builds the
dictionary the tool receives by looping `for parameter_name in node_data.tool_parameters:`, the
inputs configured on the node, which the editor offers from the declared parameters; it even skips
an optional parameter whose variable is missing. An agent fills in only what the model was told
about, and the agent runner describes to the model just the declared parameters with
`form: llm` (it skips every parameter whose `form` is not `llm`). So `tool_parameters["x"]` for an
`x` the YAML never declares raises KeyError for every user who reaches that line.

The check reads the `_invoke` method of the module's one `Tool` subclass, without importing it,
and names a subscript with a constant key of its second parameter. It stays silent when `_invoke`
stores the key, tests it with `in`, reads it with `.get(...)`, calls `update`, rebinds or hands
the dictionary to other code, or reads it inside a `try` that catches KeyError; and for a class
that declares parameters at run time (`_get_runtime_parameters`). It is an error when the read
runs on every call (a statement directly in `_invoke`, after no `return` or `raise`), and a
warning when it sits in a branch, a loop or a nested function.
""",
)
CONDITIONAL_HINT = (
    'Declare `{key}` under `parameters:` in the tool YAML, or read it with `{dict}.get("{key}")`:'
    " every call that reaches this line fails."
)

# Methods of the tool class through which the SDK, or the class, could hand `_invoke` other
# parameters than the YAML's: then the declared list says nothing about the keys.
OVERRIDES = frozenset({"_get_runtime_parameters", "get_runtime_parameters", "invoke", "_convert_parameters"})
# Exceptions whose handler catches a KeyError.
CATCHES_KEY_ERROR = frozenset({"KeyError", "LookupError", "Exception", "BaseException"})
# Calls that only look at the dictionary: handing it to them cannot add a key.
READERS = frozenset({"len", "str", "repr", "print", "dict", "list", "sorted", "bool", "isinstance", "type"})
READER_METHODS = frozenset(
    {"dumps", "debug", "info", "warning", "warn", "error", "exception", "critical", "log"}
)
# Methods of the dictionary that add keys we cannot name; methods that name a key the code
# expects may be missing (`get`, `pop`) or stores (`setdefault`).
ADDS_UNKNOWN_KEYS = frozenset({"update", "__setitem__", "__ior__", "setdefault"})
NAMES_A_KEY = frozenset({"get", "pop", "setdefault"})
# Compound statements: only their head (in HEADS) runs whenever they do; bodies, branches and
# handlers may not, and a `with` or `try` body may be cut short or have its error swallowed.
COMPOUND = (
    ast.If,
    ast.While,
    ast.For,
    ast.AsyncFor,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.TryStar,
    ast.Match,
)
HEADS: dict[type[ast.stmt], tuple[str, ...]] = {
    ast.If: ("test",),
    ast.While: ("test",),
    ast.For: ("iter",),
    ast.AsyncFor: ("iter",),
    ast.Match: ("subject",),
}
# Code that runs later or not at all when the expression around it is evaluated.
DEFERRED = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.comprehension,
    ast.match_case,
    ast.withitem,
    ast.excepthandler,
)
Function = ast.FunctionDef | ast.AsyncFunctionDef
Parents = dict[ast.AST, ast.AST]


@dataclass(frozen=True, slots=True)
class Read:
    """One `NAME["key"]` in `_invoke` whose key the tool does not declare."""

    node: ast.Subscript
    key: str
    certain: bool


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Reads of undeclared parameters in every tool's `_invoke`."""
    return undeclared_reads(loaded, loaded.plugin.tools if loaded.plugin else ())


@dataclass(frozen=True, slots=True)
class Invoke:
    """A tool's `_invoke` as the SDK calls it: where it is, its parameters' dictionary, and the
    names the YAML declares."""

    tool: Tool
    display: str
    function: Function
    dictionary: str
    declared: list[str]

    def shown(self) -> Listing | Phrase:
        """The declared names as a finding lists them."""
        return Listing(self.declared) if self.declared else Phrase("none")


def invokes(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Invoke]:
    """The `_invoke` of each of `tools` whose parameters are plainly the YAML's."""
    for tool in tools:
        found = tool_module_tree(loaded, tool)
        if found is None or not parameters_are_known(loaded, tool):
            continue
        file, tree = found
        invoke = invoke_of(tree)
        name = dictionary_name(invoke) if invoke is not None else None
        if invoke is not None and name is not None:
            declared = [parameter.name for parameter in tool.parameters]
            yield Invoke(tool, loaded.display_path(file), invoke, name, declared)


def undeclared_reads(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Finding]:
    """Reads of undeclared parameters in the `_invoke` of each of `tools`."""
    for found in invokes(loaded, tools):
        tool, name, declared, shown = found.tool, found.dictionary, found.declared, found.shown()
        for read in _reads(found.function, name, set(declared)):
            where = Location(found.display, read.node.lineno, read.node.col_offset + 1)
            if read.certain:
                yield UNDECLARED_READ.at(where, tool=tool.name, dict=name, key=read.key, declared=shown)
            else:
                yield UNDECLARED_READ.at(
                    where,
                    Severity.WARNING,
                    CONDITIONAL_HINT,
                    tool=tool.name,
                    dict=name,
                    key=read.key,
                    declared=shown,
                )


def parameters_are_known(loaded: LoadedPlugin, tool: Tool) -> bool:
    # The model drops entries it cannot read (a `parameters` that is not a list, an entry that is
    # not a mapping or has no string name): the names the SDK sees are then not all known to us.
    document = loaded.documents.get(tool.file)
    data = document.data if document is not None else None
    raw = data.get("parameters") if isinstance(data, dict) else None
    if raw is None:
        return True
    return isinstance(raw, list) and all(isinstance(e, dict) and isinstance(e.get("name"), str) for e in raw)


def tool_invokes(loaded: LoadedPlugin) -> Iterator[tuple[Tool, str, ast.Module, Function]]:
    """Each tool whose class file parses and says plainly which `_invoke` the SDK calls: the tool,
    its file, the file's tree and the method."""
    for tool in loaded.plugin.tools if loaded.plugin else ():
        found = tool_module_tree(loaded, tool)
        invoke = invoke_of(found[1]) if found else None
        if found is not None and invoke is not None:
            yield tool, found[0], found[1], invoke


def invoke_of(tree: ast.Module, parameters: bool = True) -> Function | None:
    """The `_invoke` of the module's one class deriving directly from dify_plugin's Tool, or None
    when the module does not say plainly which method the SDK calls with the YAML's parameters
    (with `parameters` false: which method the SDK calls, whatever parameters it gets)."""
    tool_names = sdk_names(tree)
    classes = [
        node
        for node in tree.body
        if isinstance(node, ast.ClassDef) and any(is_tool_base(base, tool_names) for base in node.bases)
    ]
    if len(classes) != 1 or classes[0].decorator_list:
        return None
    others = [node for node in every_node(tree) if isinstance(node, ast.ClassDef) and node is not classes[0]]
    if any("_invoke" in class_members(other) for other in others):
        return None  # another class with an `_invoke` (a subclass, a helper): which one runs is unclear
    members = class_members(classes[0])
    overrides = OVERRIDES if parameters else {"invoke"}  # `invoke` may not call `_invoke` at all
    if overrides & members.keys() or len(members.get("_invoke", [])) != 1:
        return None
    invoke = members["_invoke"][0]
    if not isinstance(invoke, ast.FunctionDef | ast.AsyncFunctionDef) or invoke.decorator_list:
        return None  # assigned or decorated: what Dify calls is not this body as written
    return invoke


def sdk_names(tree: ast.Module, name: str = "Tool") -> set[str]:
    """Names under which the module imports dify_plugin's class `name` (Tool, File).
    An import in a top-level `try` body counts: the SDK runs it (the `except` fallback is for
    tests without the SDK)."""
    names: set[str] = set()
    statements = [*tree.body, *(s for t in tree.body if isinstance(t, ast.Try) for s in t.body)]
    for node in statements:
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "dify_plugin":
            names.update(alias.asname or alias.name for alias in node.names if alias.name == name)
    return names


def is_tool_base(base: ast.expr, tool_names: set[str], name: str = "Tool") -> bool:
    """True when a class base names dify_plugin's class `name` (Tool, Event...), under a name the
    module imports it as (`tool_names`, from `sdk_names`) or spelt from `dify_plugin` down."""
    if isinstance(base, ast.Name):
        return base.id in tool_names
    root: ast.expr = base
    while isinstance(root, ast.Attribute):
        root = root.value
    return (
        isinstance(base, ast.Attribute)
        and base.attr == name
        and isinstance(root, ast.Name)
        and root.id == "dify_plugin"
    )


def class_members(node: ast.ClassDef) -> dict[str, list[ast.stmt]]:
    """The statements of a class body that bind each name (methods and assignments)."""
    found: dict[str, list[ast.stmt]] = {}
    for statement in node.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            found.setdefault(statement.name, []).append(statement)
        elif isinstance(statement, ast.Assign | ast.AnnAssign):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                for bound in ast.walk(target):
                    if isinstance(bound, ast.Name):
                        found.setdefault(bound.id, []).append(statement)
    return found


def dictionary_name(invoke: Function) -> str | None:
    """The name of `_invoke`'s second positional parameter (after self): the parameters' dict."""
    positional = [*invoke.args.posonlyargs, *invoke.args.args]
    return positional[1].arg if len(positional) >= 2 else None


def _reads(invoke: Function, name: str, declared: set[str]) -> list[Read]:
    candidates = [
        (node, key)
        for node in every_node(invoke)
        if (key := _read_key(node, name)) is not None and key not in declared
    ]
    if not candidates:  # most tools read only what they declare: nothing more to look at
        return []
    parents: Parents = {child: node for node in every_node(invoke) for child in children(node)}
    guarded = guarded_keys(invoke, name, parents)
    if guarded is None:
        return []
    found = []
    for node, key in candidates:
        if key not in guarded.guarded and not caught(node, invoke, parents):
            assert isinstance(node, ast.Subscript)  # what _read_key accepts
            found.append(Read(node, key, always_runs(node, invoke, parents)))
    return found


def _read_key(node: ast.AST, name: str) -> str | None:
    """The key of `name["key"]` when `node` reads one."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.ctx, ast.Load):
        return None
    return constant(node.slice) if isinstance(node.value, ast.Name) and node.value.id == name else None


@dataclass(frozen=True, slots=True)
class Keys:
    """The keys `_invoke` names safely (stores, tests, `.get`s) and those it stores itself."""

    guarded: set[str]
    stored: set[str]


def guarded_keys(
    invoke: Function,
    name: str,
    parents: Parents,
    passed: Mapping[int, Keys] | None = None,
    listed: Mapping[str, frozenset[str]] | None = None,
    named: Mapping[str, frozenset[str]] | None = None,
) -> Keys | None:
    """Keys `_invoke` stores, tests or reads safely; None when it may add keys we cannot name
    (the name rebound, shadowed or handed to other code, a store under a computed key). `passed`
    gives, by the `id` of a call that hands the dictionary to one of the plugin's own functions,
    the keys that function names (see `passed_on.py`); `listed`, for a parameter of a followed
    helper, the literal strings every call gives it: a key tested while looping over it is one of
    those; `named`, for a parameter of a followed helper that every call gives a string constant,
    those constants: a key tested under that parameter's name is one of them."""
    keys: set[str] = set()
    stored: set[str] = set()
    own = set(map(id, [*invoke.args.posonlyargs, *invoke.args.args, *invoke.args.kwonlyargs]))
    looped = {**_looped_over(invoke, listed or {}), **(named or {})}
    for node in every_node(invoke):
        if shadows(node, name) and id(node) not in own:
            return None
        tested = membership_key(node, name)
        if tested is not None:
            if not tested:
                left = node.left if isinstance(node, ast.Compare) else None
                computed = left.id if isinstance(left, ast.Name) else ""
                if computed not in looped:
                    return None  # `k in params` for a computed k may guard any key
                keys |= looped[computed]
                continue
            keys.add(tested)
        if isinstance(node, ast.Name) and node.id == name:
            use = _use(node, parents, passed or {})
            if use is None:
                return None
            keys |= use[0]
            stored |= use[1]
    return Keys(keys | stored, stored)


def _looped_over(function: Function, listed: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """Loop variables bound only by a `for` (or comprehension) over a parameter in `listed`, with
    the strings that parameter holds."""
    if not listed:
        return {}
    bound: dict[str, list[frozenset[str] | None]] = {}
    for node in every_node(function):
        if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension) and isinstance(node.target, ast.Name):
            over = node.iter.id if isinstance(node.iter, ast.Name) else ""
            bound.setdefault(node.target.id, []).append(listed.get(over))
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.setdefault(node.id, []).append(None)
    looped = {}
    for variable, sources in bound.items():
        # the loop's own target is a Store too: one `for` gives two entries, the source and None
        strings = [source for source in sources if source is not None]
        if len(strings) == 1 and len(sources) == 2:
            looped[variable] = strings[0]
    return looped


def shadows(node: ast.AST, name: str) -> bool:
    """True when `node` binds `name` (an assignment, a parameter, an import, an `except ... as`,
    a `match` capture, a `global` or `nonlocal`)."""
    if isinstance(node, ast.Name) and node.id == name:
        return not isinstance(node.ctx, ast.Load)
    if isinstance(node, ast.arg):
        return node.arg == name
    if isinstance(node, ast.Global | ast.Nonlocal):
        return name in node.names
    if isinstance(node, ast.alias):
        return (node.asname or node.name) == name
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        return node.name == name
    return False


def membership_key(node: ast.AST, name: str) -> str | None:
    """For `"k" in params` (or `not in`, or against `params.keys()`): "k", or "" for a key that is
    not a constant; None when `node` tests no membership in `params`."""
    if not isinstance(node, ast.Compare):
        return None
    for op, right in zip(node.ops, node.comparators, strict=True):
        held = right.func.value if _calls_keys(right) else right  # type: ignore[attr-defined]
        if isinstance(op, ast.In | ast.NotIn) and isinstance(held, ast.Name) and held.id == name:
            return constant(node.left) or ""
    return None


def _calls_keys(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "keys"


class UseKind(enum.Enum):
    """What one load of a parameter dictionary's name does with the dictionary."""

    PASSED = "handed to one of the plugin's own functions that is followed"
    SHOWN = "a value inside a literal handed to a create_*_message helper"
    SUBSCRIPT_READ = "d[k]"
    SUBSCRIPT_WRITE = "d[k] = v, del d[k]"
    METHOD = "d.m(...)"
    BOUND_METHOD = "d.m kept for later"
    MEMBERSHIP = "k in d"
    LOOKED_AT = "compared, formatted, unpacked with *, tested for truth, iterated"
    TESTED = "the test of an if, while or conditional expression, or under not"
    COPIED = "f(**d)"
    READ_BY = "handed to a function that only reads it (len, str, json.dumps, a logger)"
    OTHER = "aliased, returned, or handed to code that may do anything with it"


@dataclass(frozen=True, slots=True)
class Use:
    """One use of the dictionary: its kind, the method's name for METHOD and BOUND_METHOD, and the
    constant key it names (None when it names none, or a computed one)."""

    kind: UseKind
    key: str | None = None
    method: str = ""


def use_of(node: ast.Name | ast.Attribute, parents: Parents, followed: Container[int]) -> Use:
    """What the load `node` of the dictionary's name does with it; `followed` holds the `id`s of the
    calls that hand it to one of the plugin's own functions that is read apart (`passed_on.py`)."""
    parent = parents.get(node)
    call = parents.get(parent) if isinstance(parent, ast.keyword) else parent
    if isinstance(call, ast.Call) and id(call) in followed:
        return Use(UseKind.PASSED)
    if _shown_in_message(node, parents):
        return Use(UseKind.SHOWN)
    if isinstance(parent, ast.Subscript) and parent.value is node:
        read = isinstance(parent.ctx, ast.Load)
        return Use(UseKind.SUBSCRIPT_READ if read else UseKind.SUBSCRIPT_WRITE, constant(parent.slice))
    if isinstance(parent, ast.Attribute) and parent.value is node:
        method = parents.get(parent)
        if not isinstance(method, ast.Call) or method.func is not parent:
            return Use(UseKind.BOUND_METHOD, method=parent.attr)
        return Use(UseKind.METHOD, constant(method.args[0]) if method.args else None, parent.attr)
    if isinstance(parent, ast.Compare):
        ops = [op for op, right in zip(parent.ops, parent.comparators, strict=True) if right is node]
        if ops and all(isinstance(op, ast.In | ast.NotIn) for op in ops) and parent.left is not node:
            return Use(UseKind.MEMBERSHIP, constant(parent.left))
        return Use(UseKind.LOOKED_AT)
    if _tested(node, parent):
        return Use(UseKind.TESTED)
    if isinstance(parent, ast.FormattedValue | ast.Starred) or (
        isinstance(parent, ast.For | ast.AsyncFor | ast.comprehension) and parent.iter is node
    ):
        return Use(UseKind.LOOKED_AT)
    if isinstance(parent, ast.keyword):
        # `f(**params)` hands over a copy; `f(x=params)` hands over the dictionary itself.
        if parent.arg is None:
            return Use(UseKind.COPIED)
        reads = isinstance(call, ast.Call) and _only_reads(call.func)
        return Use(UseKind.READ_BY if reads else UseKind.OTHER)
    if isinstance(parent, ast.Call) and node in parent.args and _only_reads(parent.func):
        return Use(UseKind.READ_BY)
    return Use(UseKind.OTHER)


Guards = tuple[set[str], set[str]]
NOTHING: Guards = (set(), set())
# Uses that look at the dictionary without holding on to it or adding keys to it.
LOOKS_ONLY = frozenset(
    {
        UseKind.SHOWN,
        UseKind.SUBSCRIPT_READ,
        UseKind.MEMBERSHIP,  # gathered apart, with computed keys
        UseKind.LOOKED_AT,
        UseKind.TESTED,
        UseKind.COPIED,
        UseKind.READ_BY,
    }
)


def _use(node: ast.Name, parents: Parents, passed: Mapping[int, Keys]) -> Guards | None:
    """The keys one load of the dictionary's name guards and those it stores, or None when that
    use may add keys we cannot name."""
    use = use_of(node, parents, passed)
    if use.kind is UseKind.PASSED:
        call = parents[node]
        keys = passed[id(parents[call] if isinstance(call, ast.keyword) else call)]
        return keys.guarded, keys.stored  # one of the plugin's own functions
    if use.kind in LOOKS_ONLY:
        return NOTHING
    if use.kind is UseKind.SUBSCRIPT_WRITE:
        return (set(), {use.key}) if use.key is not None else None  # a store or delete under that key
    if use.kind is UseKind.METHOD:
        if use.method == "setdefault" and use.key is not None:
            return set(), {use.key}
        if use.method in NAMES_A_KEY and use.key is not None:
            return {use.key}, set()  # `.get("k")` may guard a later `params["k"]`
        return None if use.method in ADDS_UNKNOWN_KEYS else NOTHING
    return None  # a bound method kept for later, aliased, returned, or handed to code that may add keys


def _shown_in_message(node: ast.AST, parents: Parents) -> bool:
    """True when the dictionary is a value inside a literal handed to a `create_*_message` helper,
    which only serialises it (`create_json_message({"input": params})`)."""
    child: ast.AST = node
    parent = parents.get(node)
    while parent is not None and _an_element(child, parent):
        child, parent = parent, parents.get(parent)
    return (
        child is not node
        and isinstance(parent, ast.Call)
        and child in parent.args
        and isinstance(parent.func, ast.Attribute)
        and parent.func.attr.startswith("create_")
        and parent.func.attr.endswith("_message")
    )


def _an_element(child: ast.AST, parent: ast.AST | None) -> bool:
    if isinstance(parent, ast.Dict):
        return child in parent.values
    return isinstance(parent, ast.List | ast.Tuple) and child in parent.elts


def _tested(node: ast.expr, parent: ast.AST | None) -> bool:
    # `if params:`, `x if params else y`, `not params`: a truth test, never holding on to it.
    if isinstance(parent, ast.If | ast.While | ast.IfExp):
        return parent.test is node
    return isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)


def _only_reads(function: ast.expr) -> bool:
    if isinstance(function, ast.Name):
        return function.id in READERS
    return isinstance(function, ast.Attribute) and function.attr in READER_METHODS


def constant(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def handlers_around(
    node: ast.AST, function: ast.AST, parents: Parents
) -> Iterator[tuple[ast.ExceptHandler, set[str]]]:
    """Each `except` of a `try` around `node` inside `function` (or a module), innermost first,
    with the names of the exceptions it catches ("" for a bare `except:`)."""
    child, parent = node, parents.get(node)
    while parent is not None and child is not function:
        if isinstance(parent, ast.Try | ast.TryStar) and child in parent.body:
            for handler in parent.handlers:
                kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
                yield (
                    handler,
                    {
                        kind.attr if isinstance(kind, ast.Attribute) else getattr(kind, "id", "")
                        for kind in kinds
                        if kind is not None
                    }
                    or {""},
                )
        child, parent = parent, parents.get(parent)


def running_handler(node: ast.AST, scope: ast.AST, parents: Parents) -> ast.ExceptHandler | None:
    """The `except` handler inside `scope` whose body holds `node`: that line runs only when the
    code its `try` guards fails. None when there is none."""
    parent = parents.get(node)
    while parent is not None and parent is not scope:
        if isinstance(parent, ast.ExceptHandler):
            return parent
        parent = parents.get(parent)
    return None


def caught(node: ast.AST, invoke: Function, parents: Parents) -> bool:
    """True when a `try` or `with suppress(...)` around `node` may swallow its KeyError."""
    child, parent = node, parents.get(node)
    while parent is not None and child is not invoke:
        if _swallows(parent, child):
            return True
        child, parent = parent, parents.get(parent)
    return False


def _swallows(parent: ast.AST, child: ast.AST) -> bool:
    if isinstance(parent, ast.Try | ast.TryStar) and child in parent.body:
        return any(_catches(handler.type) for handler in parent.handlers)
    if isinstance(parent, ast.With | ast.AsyncWith):
        return any(_suppresses(item.context_expr) for item in parent.items)
    return False


def _catches(kind: ast.expr | None) -> bool:
    if kind is None:
        return True  # a bare `except:`
    if isinstance(kind, ast.Tuple):
        return any(_catches(item) for item in kind.elts)
    if isinstance(kind, ast.Name):
        return kind.id in CATCHES_KEY_ERROR
    return isinstance(kind, ast.Attribute) and kind.attr in CATCHES_KEY_ERROR


def _suppresses(expression: ast.expr) -> bool:
    # `contextlib.suppress(...)`: whatever it names, count it as swallowing the KeyError.
    function = expression.func if isinstance(expression, ast.Call) else None
    if isinstance(function, ast.Name):
        return function.id == "suppress"
    return isinstance(function, ast.Attribute) and function.attr == "suppress"


def always_runs(node: ast.AST, invoke: Function, parents: Parents, failing: bool = False) -> bool:
    """True when every call of `_invoke` evaluates `node`: no branch, loop, handler, nested scope
    or short-circuit between them, and no `return` or `raise` in `_invoke`'s body before it.
    With `failing`, the question is whether every call fails there or earlier: a `with` body and a
    `try` body whose every handler ends in `raise` then count as run, since what fails in them
    (or before `node`) still fails."""
    child, parent = node, parents.get(node)
    while parent is not None and parent is not invoke:
        if not (always_evaluates(parent, child) or (failing and _passes_failures(parent, child))):
            return False
        child, parent = parent, parents.get(parent)
    if parent is not invoke or not isinstance(child, ast.stmt) or child not in invoke.body:
        return False  # a default value or decorator of `_invoke` itself, not its body
    earlier = invoke.body[: invoke.body.index(child)]
    return not any(isinstance(statement, ast.Return | ast.Raise) for statement in earlier)


def _passes_failures(parent: ast.AST, child: ast.AST) -> bool:
    """True when `child`, the body of `parent`, is cut short only by a failure that still fails
    the call: a `with` that suppresses nothing, a `try` whose every handler ends in `raise`."""
    if isinstance(parent, ast.With | ast.AsyncWith):
        return not any(_suppresses(item.context_expr) for item in parent.items)
    if isinstance(parent, ast.Try | ast.TryStar) and child in parent.body:
        return all(isinstance(handler.body[-1], ast.Raise) for handler in parent.handlers)
    return False


def always_evaluates(parent: ast.AST, child: ast.AST) -> bool:
    """True when evaluating or running `parent` always evaluates its part `child`."""
    if isinstance(parent, DEFERRED):
        return False
    if isinstance(parent, ast.IfExp):
        return child is parent.test
    if isinstance(parent, ast.BoolOp):
        return child is parent.values[0]
    if isinstance(parent, ast.Assert):
        return child is parent.test
    if isinstance(parent, COMPOUND):
        return any(getattr(parent, field) is child for field in HEADS.get(type(parent), ()))
    return True
