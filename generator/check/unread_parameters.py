"""Parameters a tool's YAML declares and its code never reads (R090), found without running it.

A declared parameter is shown to every user: the workflow editor offers it as an input, an agent's
model is told about it (`form: llm`). When `_invoke` (and the plugin's own functions it hands the
dictionary to, `passed_on.py`, and the methods of its class when it keeps the dictionary on `self`)
reads the dictionary only under constant keys and none of them is the parameter's, what a user sets
there changes nothing. The reading is closed or the check is silent: a key computed at run time,
the dictionary iterated, spread (`**d`), shown whole in a message or handed to code we do not
follow may read any parameter. A copy bound once to a name (`params = dict(d)`, `d.copy()`,
`{**d}`) is read as the dictionary is.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from typing import TypeGuard

from generator.check import CheckContext
from generator.check.common import children, every_node, tool_module_tree
from generator.check.lookups import alternative_keys
from generator.check.passed_on import follow, owner_class
from generator.check.undeclared import (
    Function,
    Invoke,
    Parents,
    UseKind,
    class_members,
    constant,
    invokes,
    use_of,
)
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.plugin_model import Tool
from generator.rules import Listing, Phrase, rule

UNREAD_PARAMETER = rule(
    "R090",
    "parameter-never-read",
    Severity.WARNING,
    "tool {tool} declares parameter `{key}`, which its code never reads ({read!s}): whatever a user sets"
    " there has no effect",
    'Read it in `_invoke` ({dict}.get("{key}")), or remove it from the YAML\'s `parameters:`.',
    """
Dify shows every parameter a tool's YAML declares: the workflow editor offers it as one of the tool
node's inputs (`form: form` as a setting, `form: llm` as an input the node or an agent's model
fills), and hands the tool what was set there in the dictionary `_invoke` receives
(`ToolNode._generate_parameters` in api/core/workflow/nodes/tool/tool_node.py loops over the
node's configured parameters). Nothing else reads it: the SDK calls `_invoke(tool_parameters)` and
the value is only where the tool looks it up. A parameter the code never looks up is a control that
does nothing: users set it and nothing changes (an option a tool once had, or the value read under
another name).

The check reads `_invoke` and the plugin's own functions it hands the dictionary to, without
running them (and, when `_invoke` keeps it on the tool, `self.params = tool_parameters`, every use
of `self.params` in the methods of its class; silent when `self` itself is handed to other code,
or the class has a base besides the SDK's Tool (a mixin), which may read it there; a copy bound
once to a name, `params = dict(tool_parameters)`, `tool_parameters.copy()` or
`{**tool_parameters}`, is read as the dictionary), and speaks only when every use of the
dictionary is a read under a constant key, at least one (`d["k"]`, `d.get("k")`, `"k" in d`,
`d.pop("k")`, or `d[name]` in a function every call of which names the key, `required(d,
"k")`): any other use (a computed key, iteration, `**d`, the dictionary handed to other
code or shown whole) may read the parameter, and the check is
silent. It speaks too when `_invoke` never names the dictionary at all, yields messages (it is no
stub) and calls no `locals()` or `vars()`, in a class whose only base is the SDK's Tool and that
leaves `invoke` alone: the SDK's `Tool.invoke` is `tool_parameters =
self._convert_parameters(tool_parameters); return self._invoke(tool_parameters)`, the parameters'
only way in (a tool that answers a fixed feed whatever its `query` says).
A tool that also reads a key its YAML does not declare is left to the rules that report
such reads (R021, R070), which name the declared parameters: one cause, one finding; but not for a
key only ever looked up as an alternative beside a declared one (`tool_parameters.get("language_code")
or tool_parameters.get("hl")`), a name an agent's model may send that R070 leaves alone and no
misspelt read of another parameter. A warning:
the tool works, the parameter does not.
""",
)

UNUSED_READ = rule(
    "R088",
    "parameter-read-unused",
    Severity.WARNING,
    "tool {tool} reads {reads} into {into!s} that nothing in `_invoke` uses: whatever a user sets"
    " there has no effect",
    "Use {them} where the tool does its work, or remove {them} from the YAML's `parameters:`.",
    """
The same outcome as R090, one step later: `_invoke` reads the parameter (`sql =
tool_parameters.get("sql")`) into a local variable, and no line of `_invoke` (nor any function
inside it) reads that variable again. Dify hands the value over (`ToolNode._generate_parameters`),
the tool binds it and drops it: a template's placeholder body that answers a fixed text, or a
feature left half done. The check reads `_invoke`'s assignments of a plain read of its parameters'
dictionary (`d.get("k")`, `d.get("k", default)`, `d["k"]`) to one name that no other statement
binds (a name starting with `_` is discarded on purpose; a read or a binding that only normalises the
name itself, `if x == "": x = False` or `x = x.strip()`, is no use, nor, for a select parameter whose
options are all non-empty strings, a test of whether it is set, `if ratio and "--ratio" not in
prompt:`, since every option passes it alike and the one picked never matters), and is silent when
the function calls `locals()`, `vars()` or `eval`, which may read any variable. One finding per tool,
at the first such line. A warning: the tool works, the parameter does not.
""",
)
# Functions that may read any local variable by its name.
READS_LOCALS = frozenset({"locals", "vars", "eval", "exec"})
# Methods that read one key named by their first argument.
KEY_READERS = frozenset({"get", "pop", "setdefault", "__getitem__", "__contains__"})


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Declared parameters no tool code reads, or reads into a variable nothing uses, in every tool."""
    tools = loaded.plugin.tools if loaded.plugin else ()
    yield from unread_parameters(loaded, tools)
    yield from unused_reads(loaded, tools)


def unused_reads(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Finding]:
    """For each of `tools`: the parameters `_invoke` reads into a variable it never uses (R088)."""
    for invoke in invokes(loaded, tools):
        function = invoke.function
        nodes = every_node(function)
        if any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in READS_LOCALS
            for n in nodes
        ):
            continue
        parents = {id(child): node for node in nodes for child in ast.iter_child_nodes(node)}
        selects = _select_holders(invoke, function)
        # A name read only to normalise itself (`if x == "": x = False`, `x = x.strip()`) is unused too,
        # as is a select's value only tested for being set (`if ratio and ...`): no option matters.
        loads = {
            n.id
            for n in nodes
            if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)
            and not _self_use(n, parents)
            and not (n.id in selects and _truth_test(n, parents))
        }
        truth_tested = {
            n.id for n in nodes if isinstance(n, ast.Name) and n.id in selects and _truth_test(n, parents)
        }
        binds: dict[str, int] = {}
        for node in nodes:
            if (
                isinstance(node, ast.Name)
                and not isinstance(node.ctx, ast.Load)
                and not _self_use(node, parents)
            ):
                binds[node.id] = binds.get(node.id, 0) + 1
        unused = [
            (statement, target.id, key)
            for statement in function.body
            if isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(target := statement.targets[0], ast.Name)
            and target.id not in loads
            and not target.id.startswith("_")  # `_ = d.get("k")`: discarded on purpose
            and binds.get(target.id) == 1
            and (key := _plain_read(statement.value, invoke.dictionary)) in invoke.declared
        ]
        if unused:
            first = unused[0][0]
            tested = sorted(name for _, name, _key in unused if name in selects and name in truth_tested)
            hint = (
                f"{Listing([f'`{name}`' for name in tested])} is only tested for being set, and every"
                " option of a select is a non-empty string, so which one is picked never matters:"
                " compare with the option values, or remove the parameter from the YAML."
                if tested
                else None
            )
            yield UNUSED_READ.at(
                Location(invoke.display, first.lineno, first.col_offset + 1),
                hint=hint,
                tool=invoke.tool.name,
                reads=Listing([_shown(key, name) for _, name, key in unused]),
                them=Phrase("them" if len(unused) > 1 else "it"),
                into=Phrase("variables" if len(unused) > 1 else "a variable"),
            )


def _stub(function: Function) -> bool:
    """True when the body only yields messages of constants (`yield self.create_text_message("")`,
    the template's `{"result": "Hello, world!"}`, a module's constant), besides a docstring and
    `pass`: fixed answers, whose parameters are still to come."""
    for statement in function.body:
        value = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(statement, ast.Pass) or isinstance(value, ast.Constant):
            continue
        call = value.value if isinstance(value, ast.Yield) else None
        if not isinstance(call, ast.Call) or not all(_constant_value(arg) for arg in call.args):
            return False
    return True


def _constant_value(node: ast.expr) -> bool:
    """A constant or a name, or a literal dictionary, list or tuple of them."""
    if isinstance(node, ast.Dict):
        return all(key is not None and _constant_value(key) for key in node.keys) and all(
            _constant_value(value) for value in node.values
        )
    if isinstance(node, ast.List | ast.Tuple):
        return all(_constant_value(element) for element in node.elts)
    # a bare name too: in a body of yields alone it can only be a module's constant
    return isinstance(node, ast.Constant | ast.Name)


def _select_holders(invoke: Invoke, function: Function) -> set[str]:
    """Names a statement of `function`'s body binds to a plain read of a select parameter whose
    every option is a non-empty string (so any picked value is true)."""
    selects = {
        parameter.name
        for parameter in invoke.tool.parameters
        if parameter.type == "select" and parameter.options and all(o.value for o in parameter.options)
    }
    return {
        target.id
        for statement in function.body
        if isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(target := statement.targets[0], ast.Name)
        and _plain_read(statement.value, invoke.dictionary) in selects
    }


def _truth_test(name: ast.Name, parents: dict[int, ast.AST]) -> bool:
    """True when the name is only tested for truth: the test of an `if`, `while` or conditional
    expression, alone, under `not`, or as an operand of `and`/`or` there."""
    node: ast.AST = name
    parent = parents.get(id(node))
    while isinstance(parent, ast.BoolOp) or _negation(parent):
        node, parent = parent, parents.get(id(parent))
    return isinstance(parent, ast.If | ast.While | ast.IfExp) and parent.test is node


def _negation(node: ast.AST | None) -> TypeGuard[ast.UnaryOp]:
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)


def _self_use(name: ast.Name, parents: dict[int, ast.AST]) -> bool:
    """True when the name only takes part in rebinding itself: inside `x = <expr of x>` (the value
    reads x), or in the test of an `if` whose branches only rebind x."""
    node: ast.AST = name
    while (parent := parents.get(id(node))) is not None and not isinstance(parent, ast.stmt):
        node = parent
    if isinstance(parent, ast.Assign | ast.AugAssign):
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        rebinds = all(isinstance(t, ast.Name) and t.id == name.id for t in targets)
        reads_itself = isinstance(parent, ast.AugAssign) or any(
            isinstance(n, ast.Name) and n.id == name.id for n in ast.walk(parent.value)
        )
        return rebinds and (reads_itself or isinstance(parents.get(id(parent)), ast.If))
    if isinstance(parent, ast.If) and node is parent.test:
        branch = [*parent.body, *parent.orelse]
        return all(
            isinstance(s, ast.Pass)
            or (
                isinstance(s, ast.Assign)
                and all(isinstance(t, ast.Name) and t.id == name.id for t in s.targets)
            )
            for s in branch
        )
    return False


def _plain_read(value: ast.expr, dictionary: str) -> str | None:
    """The key of `dictionary.get("k")`, `dictionary.get("k", default)` or `dictionary["k"]`."""
    if (
        isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and value.value.id == dictionary
    ):
        return constant(value.slice)
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "get"
        and _is_name(value.func.value, dictionary)
        and value.args
    ):
        return constant(value.args[0])
    return None


def unread_parameters(loaded: LoadedPlugin, tools: Iterable[Tool]) -> Iterator[Finding]:
    """For each of `tools` whose code reads its dictionary only under constant keys: the declared
    parameters it never reads, at their YAML lines."""
    for invoke in invokes(loaded, tools):
        if not invoke.declared:
            continue
        read = _keys_read(loaded, invoke)
        if read is None or (not read[0] and not _untouched(loaded, invoke)):
            continue  # open, or no key read at all: a stub, or parameters reached in a way not read here
        keys, alternatives = read
        if any(key not in invoke.declared and key not in alternatives for key in keys):
            continue  # a read under an undeclared name: the misspelt-read rules name both sides
        listed = ", ".join(f"`{key}`" for key in sorted(keys))
        shown = Phrase(
            f"it reads {invoke.dictionary} only as {listed}"
            if keys
            else f"`_invoke` never uses {invoke.dictionary}"
        )
        for parameter in invoke.tool.parameters:
            if parameter.name in keys:
                continue
            yield UNREAD_PARAMETER.at(
                parameter.origin,
                tool=invoke.tool.name,
                key=parameter.name,
                dict=invoke.dictionary,
                read=shown,
            )


def _untouched(loaded: LoadedPlugin, invoke: Invoke) -> bool:
    """True when a working `_invoke` (one that yields) never names its dictionary, nor calls
    `locals()` or the like, in a class that leaves the SDK's `invoke` as it is: the SDK's
    `Tool.invoke` hands the parameters to `_invoke` alone, so nothing reads them."""
    module = tool_module_tree(loaded, invoke.tool)
    cls = owner_class(module[1], invoke.function) if module is not None else None
    base = cls.bases[0] if cls is not None and len(cls.bases) == 1 else None
    sdk_tool = (isinstance(base, ast.Name) and base.id == "Tool") or (
        isinstance(base, ast.Attribute) and base.attr == "Tool"
    )
    if cls is None or not sdk_tool or "invoke" in class_members(cls):
        return False  # a mixin's, a base class's of the plugin or an own `invoke` may read them
    nodes = list(every_node(invoke.function))
    if not any(isinstance(node, ast.Yield | ast.YieldFrom) for node in nodes) or _stub(invoke.function):
        return False  # a stub, or the template's placeholder: its parameters are to come
    return not any(
        (isinstance(node, ast.Name) and node.id in (invoke.dictionary, *READS_LOCALS)) for node in nodes
    )


def _keys_read(loaded: LoadedPlugin, invoke: Invoke) -> tuple[set[str], frozenset[str]] | None:
    """Every key the tool's code reads of its dictionary, with those of them that are only ever
    looked up as an alternative beside a declared one (`alternative_keys`), or None when it may
    read keys we cannot name."""
    module = tool_module_tree(loaded, invoke.tool)
    if module is None:
        return None
    followed = follow(loaded, module, invoke.function, invoke.dictionary)
    scopes = [
        (invoke.function, invoke.dictionary, {}),
        *((h.function, h.name, h.named) for h in followed.helpers),
    ]
    stores = _self_stores(invoke.function, invoke.dictionary)
    keys: set[str] = set()
    looked: list[tuple[Function, str]] = []  # every function with a name of the dictionary in it
    for function, name, named in scopes:
        kept = set(stores) if function is invoke.function else set()
        copies = _copies(function, name)
        looked += [(function, name), *((function, copy) for copy in copies)]
        holders = [holder for holder, _binding in copies.values()]
        found = constant_reads(function, name, [*followed.passed.keys(), *kept, *holders], named)
        for copy, (_holder, binding) in copies.items():
            read = constant_reads(function, copy, [binding]) if found is not None else None
            found = found | read if found is not None and read is not None else None
        if found is None:
            return None
        keys |= found
    cls = owner_class(module[1], invoke.function) if stores else None
    kept_keys: set[str] = set()
    for attribute in set(stores.values()):
        # only the SDK's Tool besides: a mixin's methods could read the attribute where we do not look
        alone = cls is not None and len(cls.bases) == 1
        found = _attribute_reads(cls, attribute, set(stores)) if cls is not None and alone else None
        if found is None:
            return None
        keys |= found
        kept_keys |= found
    # a key also read through `self.x` is read there alone: no alternative
    return keys, alternative_keys(looked, invoke.declared) - kept_keys


def _copies(function: Function, name: str) -> dict[str, tuple[int, int]]:
    """The names `function` binds once to a shallow copy of its dictionary (`dict(d)`, `d.copy()`,
    `{**d}`), each with the `id` of the node that holds the dictionary in the copy (its parent) and
    of the name's one binding: the copy is read as the dictionary is."""
    found: dict[str, tuple[int, int]] = {}
    stores: dict[str, int] = {}
    for node in every_node(function):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
    for node in every_node(function):
        if not (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            continue
        value, target = node.value, node.targets[0]
        copied = (
            isinstance(value, ast.Call)
            and not value.keywords
            and (
                (_is_name(value.func, "dict") and len(value.args) == 1 and _is_name(value.args[0], name))
                or (
                    isinstance(value.func, ast.Attribute)
                    and value.func.attr == "copy"
                    and _is_name(value.func.value, name)
                    and not value.args
                )
            )
        ) or (isinstance(value, ast.Dict) and value.keys == [None] and _is_name(value.values[0], name))
        if copied and stores.get(target.id) == 1 and target.id != name:
            holder = (
                value.func if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) else value
            )
            found[target.id] = (id(holder), id(target))
    return found


def _self_stores(function: Function, name: str) -> dict[int, str]:
    """The statements `self.x = <dictionary>` of a method (by `id`), with the attribute each sets:
    the methods of its class read the dictionary as `self.x`."""
    positional = [*function.args.posonlyargs, *function.args.args]
    own = positional[0].arg if positional else None
    return {
        id(node): target.attr
        for node in every_node(function)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(target := node.targets[0], ast.Attribute)
        and _is_name(target.value, own or "")
        and _is_name(node.value, name)
    }


def _attribute_reads(cls: ast.ClassDef, attribute: str, stores: set[int]) -> set[str] | None:
    """The constant keys the methods of `cls` read of `self.<attribute>`, or None for any other
    use: another store, a use that may read any key, or `self` itself handed to other code (which
    may read the attribute where we do not look)."""
    parents: Parents = {child: node for node in every_node(cls) for child in children(node)}
    keys: set[str] = set()
    for node in every_node(cls):
        if _is_name(node, "self") and not isinstance(parents.get(node), ast.Attribute):
            return None  # `helper(self)`: the attribute may be read there
        if not (isinstance(node, ast.Attribute) and node.attr == attribute and _is_name(node.value, "self")):
            continue
        if not isinstance(node.ctx, ast.Load):
            if id(parents.get(node)) not in stores:
                return None  # bound to something else too
            continue
        key = _read_key(node, parents, set())
        if key is None:
            return None
        keys |= key
    return keys


def constant_reads(
    function: Function,
    name: str,
    followed_calls: Iterable[int],
    named: Mapping[str, frozenset[str]] | None = None,
) -> set[str] | None:
    """The constant keys `function` reads of its dictionary `name`, or None for any other use
    (calls handing it to a followed function are read where that function reads it, and so are
    the statements in `followed_calls` that keep it on `self` or copy it, `_copies`; a key named by
    a parameter in `named`, a followed helper's key name, is each string its callers give it)."""
    handed = set(followed_calls)
    parents: Parents = {child: node for node in every_node(function) for child in children(node)}
    own = {id(arg) for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
    keys: set[str] = set()
    for node in every_node(function):
        if isinstance(node, ast.arg) and node.arg == name and id(node) not in own:
            return None  # a nested function's parameter of the same name: another dictionary
        if not isinstance(node, ast.Name) or node.id != name:
            continue
        if not isinstance(node.ctx, ast.Load):
            if id(node) in handed:
                continue  # the one binding of a copy of the dictionary (`_copies`)
            return None  # rebound: later reads may be of another dictionary
        key = _read_key(node, parents, handed, named)
        if key is None:
            return None
        keys |= key
    return keys


def _read_key(
    node: ast.Name | ast.Attribute,
    parents: Parents,
    handed: set[int],
    named: Mapping[str, frozenset[str]] | None = None,
) -> frozenset[str] | None:
    """The constant keys one load of the dictionary reads: one, or those a key-name parameter of a
    followed helper holds (`named`, `params[name]` in `required(params, name)`); none for a use
    that reads no key (a call handing it to a followed function, a truth test); None for a use that
    may read any key."""
    if id(parents.get(node)) in handed:
        return frozenset()  # `self.x = params`: read where the class reads `self.x`
    use = use_of(node, parents, handed)
    if use.kind in (UseKind.PASSED, UseKind.TESTED):
        return frozenset()
    reads = use.kind in (UseKind.SUBSCRIPT_READ, UseKind.MEMBERSHIP) or (
        use.kind is UseKind.METHOD and use.method in KEY_READERS
    )
    if not reads:
        return None
    if use.key is not None:
        return frozenset({use.key})
    key = _key_expression(node, parents)
    return (named or {}).get(key.id) if isinstance(key, ast.Name) else None


def _key_expression(node: ast.Name | ast.Attribute, parents: Parents) -> ast.expr | None:
    """The expression naming the key a read of the dictionary `node` looks up: `d[key]`, `key in
    d`, `d.get(key)`."""
    parent = parents.get(node)
    if isinstance(parent, ast.Subscript):
        return parent.slice
    if isinstance(parent, ast.Compare):
        return parent.left
    call = parents.get(parent) if isinstance(parent, ast.Attribute) else None
    return call.args[0] if isinstance(call, ast.Call) and call.args else None


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _shown(key: str, variable: str) -> str:
    return f"`{key}`" + (f" (as `{variable}`)" if variable != key else "")
