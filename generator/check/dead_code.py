"""Private functions of the plugin that its code provably never runs.

A lookup that fails in a helper nothing calls, or that only a branch no caller can take calls,
breaks nothing for anyone: `self._fmt(result, "text")` is the only call of `_fmt`, whose
`if fmt == "json": return self._as_json(result)` never runs, so a defect inside `_as_json` is
dead code. The checks whose verdict is "every call that reaches this line fails" skip such
functions. Judged are private names (one leading underscore, not a dunder) and undecorated functions
at a module's top level (`def test_sql(...)` in `tools/db_util.py`): the daemon runs the plugin's
entry point and calls methods of its classes, never a module's function, so only the plugin's own
code can call one. A public method is judged only in a plain class (no base, no decorator) and only
when nothing names it anywhere (the SDK and libraries call the methods of their subclasses by name),
nor is a name the SDK's `Tool` knows (`_invoke`...), nor a private method name of the SDK's other
base classes (a provider's `_validate_credentials`).
"""

from __future__ import annotations

import ast

from generator.check.common import children, every_node
from generator.check.plugin_code import Function, PluginCode, plugin_code
from generator.check.sdk_api_index import tool_attributes
from generator.load.crawl import LoadedPlugin

# The private methods the SDK's base classes define (every `def _name` in `dify_plugin/interfaces/`
# of dify_plugin 0.10.2): a plugin's method of that name overrides one the SDK calls itself
# (`ToolProvider.validate_credentials` returns `self._validate_credentials(credentials)`), so no
# mention in the plugin's code is needed for it to run.
SDK_PRIVATE = frozenset(
    {
        "_browse_files",
        "_calc_response_usage",
        "_check_polling",
        "_code_block_mode_stream_processor",
        "_code_block_mode_stream_processor_with_backtick",
        "_code_block_mode_wrapper",
        "_convert_parameters",
        "_convert_prompt_message_to_dict",
        "_convert_tool_to_prompt_message_tool",
        "_create_final_llm_result_chunk",
        "_create_subscription",
        "_delete_subscription",
        "_dispatch_event",
        "_download_file",
        "_extract_response_function_call",
        "_extract_response_tool_calls",
        "_fetch_parameter_options",
        "_generate",
        "_get_content",
        "_get_context_size",
        "_get_customizable_model_schema",
        "_get_default_parameter_rule_variable_map",
        "_get_demo_file_path",
        "_get_file_name",
        "_get_max_chunks",
        "_get_model_audio_type",
        "_get_model_default_voice",
        "_get_model_word_limit",
        "_get_model_workers_limit",
        "_get_num_tokens_by_gpt2",
        "_get_pages",
        "_get_runtime_parameters",
        "_get_website_crawl",
        "_handle_generate_response",
        "_handle_generate_stream_response",
        "_init_prompt_tools",
        "_invoke",
        "_invoke_error_mapping",
        "_invoke_multimodal",
        "_is_get_runtime_parameters_overridden",
        "_join_endpoint_url",
        "_num_tokens_for_enum_field",
        "_num_tokens_for_function_call",
        "_num_tokens_for_message_value",
        "_num_tokens_for_tool_call",
        "_num_tokens_for_tool_parameters",
        "_num_tokens_for_tool_property",
        "_num_tokens_for_tools",
        "_num_tokens_from_messages",
        "_num_tokens_from_string",
        "_oauth_get_authorization_url",
        "_oauth_get_credentials",
        "_oauth_refresh_credentials",
        "_on_event",
        "_refresh_subscription",
        "_request_credentials_validation",
        "_set_prompt_tool_parameter",
        "_split_text_into_sentences",
        "_start_polling",
        "_text_from_message_value",
        "_transform_invoke_error",
        "_validate_and_filter_model_parameters",
        "_validate_api_key",
        "_validate_credentials",
        "_wrap_thinking_by_reasoning_content",
    }
)
# What a literal argument can decide: the parameter's possible values, or None when unknown.
Values = frozenset[object] | None


def unreached_functions(loaded: LoadedPlugin) -> frozenset[int]:
    """The ids of the plugin's function nodes that no path of its code reaches."""
    return loaded.reader.derived("unreached-functions", "", lambda: _unreached(plugin_code(loaded)))


def _unreached(code: PluginCode) -> frozenset[int]:
    trees = [tree for _relative, tree in code.modules.values()]
    nodes = [node for tree in trees for node in every_node(tree)]
    if any(_computed_lookup(node) for node in nodes):
        return frozenset()  # `getattr(self, "_as_" + fmt)`: any name may be called
    parents = {id(child): node for node in nodes for child in children(node)}
    functions = [node for node in nodes if isinstance(node, Function)]
    by_name: dict[str, list[Function]] = {}
    for function in functions:
        by_name.setdefault(function.name, []).append(function)
    sdk = (tool_attributes() or frozenset()) | SDK_PRIVATE
    judged = {
        name: group
        for name, group in by_name.items()
        if len(group) == 1
        and name not in sdk
        and (_private(name) or _plain_module_function(group[0], parents))
    }
    mentions: dict[str, list[ast.AST]] = {name: [] for name in judged}
    for node in nodes:
        name = _mentioned(node)
        if name in mentions:
            mentions[name].append(node)
    dead: set[int] = set()
    changed = True
    while changed:  # a function whose every caller is dead is dead too
        changed = False
        for name, (function,) in judged.items():
            if id(function) in dead:
                continue
            if all(_never_runs(mention, parents, dead, judged, mentions) for mention in mentions[name]):
                dead.add(id(function))
                changed = True
    # a plain class's method, or a module's function, defined maybe in several files (a copy kept
    # as an example) and named nowhere at all: only the plugin's own code could call it
    named = {name for node in nodes if (name := _mentioned(node)) is not None}
    for name, group in by_name.items():
        if name in judged or name in sdk or name.startswith("__") or name in named:
            continue
        if all(_plain_module_function(f, parents) or _plain_method(f, parents) for f in group):
            dead.update(id(function) for function in group)
    return frozenset(dead)


def mentioned_names(loaded: LoadedPlugin) -> frozenset[str]:
    """Every name the plugin's code mentions anywhere (a name, an attribute, a string constant),
    with the names the SDK calls by itself: a method named nowhere else only a framework calls."""
    return loaded.reader.derived("mentioned-names", "", lambda: _mentioned_names(plugin_code(loaded)))


def _mentioned_names(code: PluginCode) -> frozenset[str]:
    names = {
        name
        for _relative, tree in code.modules.values()
        for node in every_node(tree)
        if (name := _mentioned(node)) is not None
    }
    return frozenset(names) | (tool_attributes() or frozenset()) | SDK_PRIVATE


def _plain_method(function: Function, parents: dict[int, ast.AST]) -> bool:
    """An undecorated method of an undecorated class that derives from nothing (or `object`): no
    SDK class, framework or library base calls it by its name."""
    owner = parents.get(id(function))
    return (
        isinstance(owner, ast.ClassDef)
        and not owner.decorator_list
        and not owner.keywords
        and all(isinstance(base, ast.Name) and base.id == "object" for base in owner.bases)
        and not function.decorator_list
    )


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _plain_module_function(function: Function, parents: dict[int, ast.AST]) -> bool:
    """A function defined at a module's top level, undecorated (a decorator may register it with
    a framework that calls it by itself), other than `main`: Dify calls only the plugin's classes,
    so only the plugin's own code can call it."""
    return (
        isinstance(parents.get(id(function)), ast.Module)
        and not function.decorator_list
        and function.name != "main"
    )


def _computed_lookup(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("getattr", "hasattr")
        and len(node.args) >= 2
        and not isinstance(node.args[1], ast.Constant)
    )


def _mentioned(node: ast.AST) -> str | None:
    """The name a node mentions, however: a load of a name or attribute, or a string constant."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _never_runs(
    mention: ast.AST,
    parents: dict[int, ast.AST],
    dead: set[int],
    judged: dict[str, list[Function]],
    mentions: dict[str, list[ast.AST]],
) -> bool:
    """True when the mention sits in a dead function, or in a branch of an `if` that the literal
    arguments every caller of its function passes decide against."""
    branches, function = _enclosing(mention, parents)
    if function is None:
        return False
    if id(function) in dead:
        return True
    values = _argument_values(function, judged, mentions, parents)
    for taken, test in branches:
        decided = _decided(test, values)
        if decided is not None and decided != taken:
            return True
    return False


def _enclosing(
    node: ast.AST, parents: dict[int, ast.AST]
) -> tuple[list[tuple[bool, ast.expr]], Function | None]:
    """The `if` tests the node sits in a branch of (True for the body, False for `else`), and the
    function that holds it (None for module-level code)."""
    branches: list[tuple[bool, ast.expr]] = []
    child = node
    while (parent := parents.get(id(child))) is not None:
        if isinstance(parent, ast.If) and child is not parent.test:
            branches.append((any(s is child for s in parent.body), parent.test))
        if isinstance(parent, Function) and all(child is not d for d in parent.decorator_list):
            return branches, parent
        child = parent
    return branches, None


def _argument_values(
    function: Function,
    judged: dict[str, list[Function]],
    mentions: dict[str, list[ast.AST]],
    parents: dict[int, ast.AST],
) -> dict[str, Values]:
    """For each parameter of `function` that the function never rebinds: the constants its callers
    pass (or its constant default when a caller leaves it out); None when any caller passes
    something else, or when the function is mentioned other than in a call."""
    if judged.get(function.name) != [function]:
        return {}
    arguments = function.args
    names = [argument.arg for argument in [*arguments.posonlyargs, *arguments.args]]
    defaults: dict[str, ast.expr] = dict(
        zip(names[len(names) - len(arguments.defaults) :], arguments.defaults, strict=False)
    )
    rebound = {
        node.id
        for node in every_node(function)
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
    }
    values: dict[str, set[object] | None] = {name: set() for name in names if name not in rebound}
    for mention in mentions[function.name]:
        call = parents.get(id(mention))
        if not (isinstance(call, ast.Call) and call.func is mention) or _unpacks(call):
            return {}
        # A method called on an object or a class: its first parameter is that object.
        passed = names[1:] if isinstance(mention, ast.Attribute) and _is_method(function, parents) else names
        given: dict[str, ast.expr] = dict(zip(passed, call.args, strict=False))
        given.update({keyword.arg: keyword.value for keyword in call.keywords if keyword.arg})
        for name, seen in values.items():
            value = given.get(name, defaults.get(name))
            if seen is None or name not in passed:
                continue
            if isinstance(value, ast.Constant):
                seen.add(value.value)
            else:
                values[name] = None
    return {name: frozenset(seen) if seen is not None else None for name, seen in values.items()}


def _unpacks(call: ast.Call) -> bool:
    return any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords)


def _is_method(function: Function, parents: dict[int, ast.AST]) -> bool:
    return isinstance(parents.get(id(function)), ast.ClassDef) and not any(
        isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list
    )


def _decided(test: ast.expr, values: dict[str, Values]) -> bool | None:
    """The truth of `P == "x"`, `P != "x"`, `P in ("x", "y")` or `P not in ...` for every value the
    callers pass for the parameter P; None when the values disagree or are not known."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(right, ast.Name) and isinstance(op, ast.Eq | ast.NotEq):
        left, right = right, left
    if not isinstance(left, ast.Name) or not (possible := values.get(left.id)):
        return None
    if isinstance(op, ast.Eq | ast.NotEq) and isinstance(right, ast.Constant):
        outcomes = {(value == right.value) == isinstance(op, ast.Eq) for value in possible}
    elif isinstance(op, ast.In | ast.NotIn) and isinstance(right, ast.Tuple | ast.List | ast.Set):
        if not all(isinstance(element, ast.Constant) for element in right.elts):
            return None
        options = [element.value for element in right.elts if isinstance(element, ast.Constant)]
        outcomes = {(value in options) == isinstance(op, ast.In) for value in possible}
    else:
        return None
    return outcomes.pop() if len(outcomes) == 1 else None
