"""An error answer that does not stop the tool (R091, R092), found without running it.

`_invoke` is a generator: `yield self.create_text_message("Error: ...")` sends a message and the
code goes on with the next line. A branch that answers an error and forgets `return` lets the tool
go on with the value its test found missing or wrong (R091); an `except` that answers and goes on
leaves a name its `try` was binding unbound, and its first use raises UnboundLocalError instead of
the answer (R092). Read in `_invoke` and in the plugin's generator functions it delegates to with
`yield from`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import children, every_node, tool_module_tree
from generator.check.passed_on import Scope, once_per_place, resolve, scope_of
from generator.check.sdk_file import own_nodes
from generator.check.undeclared import Function, Parents, always_evaluates, handlers_around, invoke_of
from generator.check.unyielded import HELPER
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

GOES_ON = rule(
    "R091",
    "error-answer-goes-on",
    Severity.WARNING,
    "the tool goes on after this error answer: with no `return` after it, line {line} then runs"
    " `{code}` with {subject}, which the test at line {test} found missing or wrong",
    "Add `return` after the yield (or put the code that needs {subject} under `else:`).",
    """
A tool's `_invoke` is a generator, and yielding a message does not end it. The SDK takes the
tool's messages with `yield from tool.invoke(request.tool_parameters)`
(`dify_plugin/core/plugin_executor.py`, `invoke_tool`; `Tool.invoke` returns `self._invoke(...)`),
and the plugin's request loop sends each one as it comes and asks for the next
(`dify_plugin/plugin.py`, `_execute_request`: `for message in response:` ...
`writer.session_message(session_id=session_id, data=writer.stream_object(data=message))`). So
after `yield self.create_text_message("API key missing")` the next line runs: the tool calls the
service without a key, reads `resp.json()["data"]` of the answer its test found bad, and either
fails (the SDK then sends the exception, `stream_error_object`, in place of the answer) or answers
twice. Seen with the SDK 0.7.4: a tool whose `if not api_key:` branch yields its message and falls
through sends "API key missing", then fails with a TypeError on the next line.

Found without running: an `if` branch (or `else`) of `_invoke`, or of a generator of the plugin
it delegates to with `yield from`, yields a message and holds no `return`, `raise`, `continue`
or `break`; its test says a value is missing (`not x`, `x is None`, `len(x) == 0`,
`"k" not in d`, `not d.get("k")`) or wrong (`resp.status_code != 200`, `not resp.ok`,
`"error" in data`, `data.get("error")`, `not isinstance(x, ...)`); and the code after the `if`
(up to the end of the function, or of the loop body it sits in) uses that value before testing
or rebinding it. Uses that only show it (a message, `len`, `str`, `print`, a log line) or loop
over it are passed over. Silent when the branch rebinds the value, when the code after tests it
again, when `else:` holds the code that needs it, when nothing follows. A warning: only the calls
that take the branch go on.
""",
)
UNBOUND = rule(
    "R092",
    "name-unbound-after-error-answer",
    Severity.WARNING,
    "{name} is bound only in the `try` at line {try_line}, whose `except` at line {handler} answers"
    " and goes on: when the guarded code fails, this line raises UnboundLocalError instead of the"
    " tool's answer",
    "Add `return` after the yield in the `except` at line {handler} (or bind {name} before the `try`).",
    """
`_invoke` is a generator, and yielding a message from an `except` handler does not end it (see
R091: the SDK iterates `_invoke` with `yield from` and sends each message as it comes). When the
code the `try` guards fails before it binds a name, the handler sends its answer and the code after
the `try` runs on; its first use of that name raises UnboundLocalError ("cannot access local
variable 'resp' where it is not associated with a value"), and the SDK sends that exception in
place of the tool's answer. Seen with the SDK 0.7.4: `try: resp = int(n)` / `except Exception as
e: yield self.create_text_message(f"Error: {e}")` / `yield ...(str(resp + 1))` sends the error
text, then fails with UnboundLocalError.

Found without running, in `_invoke` and the generators of the plugin it delegates to with
`yield from`: a name bound in a `try` body (by a statement that, or after one that, may fail),
bound nowhere earlier in the function nor in the handler that yields a message and holds no
`return`, `raise`, `continue` or `break`, then read after the `try` on every path that leaves it.
Silent when the `try` sits in a loop (the name may hold an earlier round's value), when `finally`
binds the name or ends the function, when a `return` or `raise` stands between the `try` and the
use (a flag may end the flow), when the use sits in a branch, and when a handler around the use
catches the error. One finding per `try`, at the first such use; a warning: only failing calls
take that path.
""",
)
SILENT = rule(
    "R112",
    "failure-answers-nothing",
    Severity.WARNING,
    "when the code of the `try` at line {try_line} fails, this `except` only {does} and the tool ends"
    " without a message: Dify shows an empty result and no error, and the user cannot tell that the"
    " call failed",
    'Yield an error message here (`yield self.create_text_message(f"...: {{e}}")`) or `raise`, so'
    " that Dify shows the failure.",
    """
A tool's answer is what its `_invoke` yields; an exception it raises reaches Dify as the call's
error (the SDK sends it with `stream_error_object`, `dify_plugin/plugin.py`, `_execute_request`,
and Dify's tool node fails with it). An `except` that only logs, prints or passes turns the failure
into a call that ended normally with no message: the tool node succeeds with empty `text`, `json`
and `files`, the next node runs on nothing, and the user sees no error to act on. Tried with the
SDK 0.10.2: an `_invoke` whose request fails inside `try` / `except Exception as e:
logging.error(e)` yields no message and raises nothing.

Found without running, in each tool's `_invoke`: a `try` whose body yields the tool's messages, not
in a loop, after which nothing in `_invoke` yields, with an `except` whose body holds no `yield`,
`raise`, `return`, `continue` or `break`. One finding per `try`, at its first such handler. A
warning: a failure the author means to hide (an optional extra) is possible, though rare at the end
of `_invoke`.
""",
)
# Calls that only show or measure a value: passing a missing one to them breaks nothing here.
SHOWS = frozenset({"len", "str", "repr", "print", "bool", "isinstance", "type", "hasattr", "getattr", "id"})
# What a value may stand in on its way to such a call and still be only shown (`f"{x}"`, `[x]`).
SHOWN_IN = (ast.JoinedStr, ast.FormattedValue, ast.keyword, ast.Dict, ast.List, ast.Tuple, ast.Set)
LOGS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
# Handlers that would catch the UnboundLocalError (a NameError).
CATCHES_UNBOUND = frozenset({"", "NameError", "UnboundLocalError", "Exception", "BaseException"})
# A name or key whose truth says an error happened (`if error:`, `if data.get("error"):`).
ERROR_WORD = re.compile(r"err|fail|exception|invalid", re.IGNORECASE)
# Constants that mean "nothing there" in a comparison (`x is None`, `x == ""`); 0 only for a length
# (`len(x) == 0`): `data["code"] != 0` says the answer is wrong, `count == 0` may be a plain case.
EMPTY = (None, "")
ENDS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
EXITS = frozenset({"exit", "_exit", "quit"})
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
Subject = tuple[str, str]  # ("name", "x"), ("key", "d['k']") or ("chain", "self.x")


@dataclass(frozen=True, slots=True)
class _Code:
    """A generator function the SDK runs for a tool, where findings name its file, and the parent
    of each node in it."""

    function: Function
    display: str
    parents: Parents


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R091, R092 and R112 in each tool's `_invoke` and the generators it delegates to, each place
    once."""
    return once_per_place(_findings(loaded))


def _findings(loaded: LoadedPlugin) -> Iterator[Finding]:
    for function, scope in _generators(loaded):
        parents: Parents = {child: node for node in every_node(function) for child in children(node)}
        code = _Code(function, scope.display, parents)
        yield from _goes_on(code)
        yield from _unbound(code)
        if function.name == "_invoke":
            yield from _silent(code)


def _generators(loaded: LoadedPlugin) -> Iterator[tuple[Function, Scope]]:
    """Each tool's `_invoke` and the plugin's generator functions it delegates to with `yield
    from f(...)` (a method of the class, a function of the module or of one it imports), at any
    depth."""
    for tool in loaded.plugin.tools if loaded.plugin else ():
        found = tool_module_tree(loaded, tool)
        invoke = invoke_of(found[1], parameters=False) if found is not None else None
        if found is None or invoke is None:
            continue
        reached: list[tuple[Function, Scope]] = [(invoke, scope_of(loaded, *found))]
        for function, scope in reached:  # grows while read: delegates of delegates
            for node in own_nodes(function):
                if not (isinstance(node, ast.YieldFrom) and isinstance(node.value, ast.Call)):
                    continue
                target = resolve(node.value, function, scope)
                if target is not None and _yields(target[0]) and all(f is not target[0] for f, _ in reached):
                    reached.append(target)
        yield from reached


def _yields(function: Function) -> bool:
    return any(isinstance(node, ast.Yield | ast.YieldFrom) for node in own_nodes(function))


# R091 ----------------------------------------------------------------------------------------


def _goes_on(code: _Code) -> Iterator[Finding]:
    local = _local_names(code.function)
    for node in own_nodes(code.function):
        if not isinstance(node, ast.If):
            continue
        branches = [(node.body, True)]
        if node.orelse and not (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)):
            branches.append((node.orelse, False))  # an `elif` is an `if` of its own
        if len(branches) == 2 and all(_answer(b) is not None and not _ends(b) for b, _ in branches):
            continue  # both sides answer and go on: a message chosen by the test, not an error answer
        for branch, when in branches:
            answer = _answer(branch)
            if answer is None or _ends(branch):
                continue
            subjects = [s for s in sorted(_subjects(node.test, when, local)) if not _rebinds(branch, s)]
            flags = _bound_in(branch)  # `failed = True`: code after may test it instead
            use = _first_use(_following(node, code), subjects, code.parents, flags) if subjects else None
            if use is None:
                continue
            yield GOES_ON.at(
                Location(code.display, answer.lineno, answer.col_offset + 1),
                line=use[0].lineno,
                code=_shown(use[0], code.parents),
                subject=use[1],
                test=node.lineno,
            )


def _answer(block: list[ast.stmt]) -> ast.stmt | None:
    """The last statement of `block` that yields a message (`yield self.create_text_message(...)`)."""
    found = [statement for statement in block if yields_message(statement)]
    return found[-1] if found else None


def yields_message(statement: ast.stmt) -> bool:
    """`yield self.create_..._message(...)` as a statement, but a log message."""
    value = statement.value if isinstance(statement, ast.Expr) else None
    call = value.value if isinstance(value, ast.Yield) else None
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and bool(HELPER.match(call.func.attr))
        and call.func.attr != "create_log_message"  # a log line annotates the run; it is no answer
    )


def _ends(block: list[ast.stmt]) -> bool:
    """True when something in `block` may end the flow (`return`, `raise`, `continue`, `break`,
    `exit()`): then the branch may not fall through, and the check says nothing."""
    for node in _walk(block):
        if isinstance(node, ENDS):
            return True
        if isinstance(node, ast.Call) and _called_name(node) in EXITS:
            return True
    return False


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _local_names(function: Function) -> set[str]:
    """The function's parameters (but `self` and `cls`) and the names its own body binds."""
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    names = {argument.arg for argument in every} - {"self", "cls"}
    names |= {
        node.id
        for node in own_nodes(function)
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
    }
    return names


def _subjects(test: ast.expr, when: bool, local: set[str]) -> set[Subject]:
    """What a test found missing or wrong when the branch runs (`when`: the branch runs when the
    test is true); empty when the test does not read as an error test (`if image_url:`)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _subjects(test.operand, not when, local)
    if isinstance(test, ast.BoolOp):
        return {subject for value in test.values for subject in _subjects(value, when, local)}
    if isinstance(test, ast.Compare):
        return _compared(test, when, local) if len(test.ops) == 1 else set()
    if isinstance(test, ast.Call) and _key_read(test) is None:
        if when and not ERROR_WORD.search(_called_name(test)):
            return set()  # `if is_ready(x):` runs on success
        return _roots(test, local)
    if not when:
        return _missing(test, local)  # `if not x:`, `if not d.get("k"):`
    return _roots(test, local) if ERROR_WORD.search(_last_word(test)) else set()


def _compared(test: ast.Compare, when: bool, local: set[str]) -> set[Subject]:
    op, left, right = test.ops[0], test.left, test.comparators[0]
    if isinstance(op, ast.In | ast.NotIn) and isinstance(right, ast.Name | ast.Attribute):
        key = left.value if isinstance(left, ast.Constant) and isinstance(left.value, str) else None
        if key is not None:
            absent = isinstance(op, ast.NotIn) == when
            if absent:
                base = _subject_of(right, local)
                return {("key", f"{base[1]}['{key}']")} if base is not None and base[0] != "key" else set()
            return _roots(right, local) if ERROR_WORD.search(key) else set()
    if isinstance(op, ast.In | ast.NotIn):
        return _roots(left, local) if isinstance(op, ast.NotIn) == when else set()  # not an allowed value
    value = right.value if isinstance(right, ast.Constant) else ...
    measured = left.args[0] if _is_len(left) and isinstance(left, ast.Call) else None
    if (value in EMPTY and not isinstance(value, bool)) or measured is not None:
        empty = _empty_when(op, value, measured is not None)
        if empty is None:
            return set()
        return _missing(measured or left, local) if empty == when else set()
    if isinstance(value, int) and 300 <= value < 600 and isinstance(op, ast.Gt | ast.GtE):
        return _roots(left, local) if when else set()  # `status_code >= 400`
    if isinstance(op, ast.NotEq | ast.IsNot) and value is not ...:
        return _roots(left, local) if when else set()  # `resp.status_code != 200`
    if isinstance(op, ast.Eq | ast.Is) and value is not ...:
        word = value if isinstance(value, str) else ""
        return (
            _roots(left, local)
            if (not when or ERROR_WORD.search(word)) and not isinstance(value, bool)
            else set()
        )
    return set()


def _empty_when(op: ast.cmpop, value: object, length: bool) -> bool | None:
    """Whether the comparison is true when its left side is empty (None, "", a length of 0)."""
    empty = value in EMPTY or (length and value == 0)
    if isinstance(op, ast.Eq | ast.Is | ast.LtE):
        return True if empty else None
    if isinstance(op, ast.NotEq | ast.IsNot | ast.Gt):
        return False if empty else None
    if isinstance(op, ast.Lt):
        return True if value == 1 else None
    if isinstance(op, ast.GtE):
        return False if value == 1 else None
    return None


def _is_len(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and _called_name(node) == "len" and len(node.args) == 1


def _missing(node: ast.expr, local: set[str]) -> set[Subject]:
    """What a test of `node`'s emptiness found missing: a name, a key of a dictionary (`d["k"]`,
    `d.get("k")`), an attribute of `self`; for `resp.ok` or `x.strip()` the object they belong to."""
    subject = _subject_of(node, local)
    if subject is not None:
        return {subject}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return _missing(node.func.value, local)  # `not x.strip()`
    return _roots(node, local)


def _subject_of(node: ast.expr, local: set[str]) -> Subject | None:
    if isinstance(node, ast.Name):
        return ("name", node.id) if node.id in local else None
    key = _key_read(node)
    if key is not None:
        base = _subject_of(key[0], local)
        return ("key", f"{base[1]}['{key[1]}']") if base is not None and base[0] != "key" else None
    chain = _chain(node)
    if chain is not None and chain.startswith("self."):
        return ("chain", chain)
    return None


def _key_read(node: ast.expr) -> tuple[ast.expr, str] | None:
    """`d["k"]` and `d.get("k", ...)` give (d, "k")."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        key = node.slice.value
        return (node.value, key) if isinstance(key, str) else None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.func.value, node.args[0].value
    return None


def _chain(node: ast.expr) -> str | None:
    """`self.a.b` as written; None for anything but names and attributes."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _chain(node.value)
        return f"{base}.{node.attr}" if base is not None else None
    return None


def _last_word(node: ast.expr) -> str:
    """The name, attribute or key a truth test reads last (`error`, `resp.error`, `d.get("error")`)."""
    key = _key_read(node)
    if key is not None:
        return key[1]
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _roots(node: ast.expr, local: set[str]) -> set[Subject]:
    """The local names read in `node` (not `self`, not a called function's name): the objects a
    wrong answer belongs to (`resp` of `resp.status_code != 200`)."""
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    return {
        ("name", n.id)
        for n in ast.walk(node)
        if isinstance(n, ast.Name) and n.id in local and id(n) not in called
    }


def _rebinds(block: list[ast.stmt], subject: Subject) -> bool:
    return any(_occurs(node, subject) and _stored(node) for node in _walk(block))


def _occurs(node: ast.AST, subject: Subject) -> bool:
    """True when `node` is the subject itself, or a binding of the name it hangs on."""
    kind, text = subject
    root = re.split(r"[.\[]", text, maxsplit=1)[0]
    if isinstance(node, ast.Name) and node.id == root:
        return kind == "name" or not isinstance(node.ctx, ast.Load)
    if kind == "key":
        key = _key_read(node) if isinstance(node, ast.expr) else None
        return key is not None and _chain(key[0]) is not None and f"{_chain(key[0])}['{key[1]}']" == text
    return kind == "chain" and isinstance(node, ast.Attribute) and _chain(node) == text


def _stored(node: ast.AST) -> bool:
    return isinstance(node, ast.Name | ast.Attribute | ast.Subscript) and not isinstance(node.ctx, ast.Load)


def _first_use(
    following: list[ast.stmt], subjects: Iterable[Subject], parents: Parents, flags: set[str]
) -> tuple[ast.expr, str] | None:
    """The first place in `following` that uses one of `subjects` for more than showing it, with
    the subject as written; None when the code tests or rebinds it first, or reads one of `flags`
    (names the branch set) first, or never uses it. A plain copy (`token = d.get("token")`) is
    followed: its uses are the subject's."""
    pending = {subject: subject[1] for subject in sorted(subjects)}
    copies: set[int] = set()  # the targets of copies, which bind the copy rather than rebind it
    for node in _walk(following):
        if isinstance(node, ast.Name) and node.id in flags and isinstance(node.ctx, ast.Load):
            return None
        subject = next((s for s in pending if _occurs(node, s)), None)
        if subject is None or id(node) in copies:
            continue
        copy = _copied_to(node, parents) if not isinstance(node, ast.Subscript) else None  # `d["k"]` fails
        if copy is not None:
            copies.add(id(copy))
            pending[("name", copy.id)] = f"{copy.id} (a copy of {pending[subject]})"
        elif _stored(node) or _tested(node, parents):
            del pending[subject]  # rebound or tested again: the code takes care of it from here
        elif isinstance(node, ast.expr) and not _only_shown(node, parents):
            if _raises_for_status(node, parents):
                return None  # `response.raise_for_status()` ends the call on the status just tested
            return node, pending[subject]
        if not pending:
            return None
    return None


def _raises_for_status(node: ast.expr, parents: Parents) -> bool:
    """True for the receiver of `x.raise_for_status()` (requests, httpx): it raises on an error status."""
    method = parents.get(node)
    call = parents.get(method) if method is not None else None
    return (
        isinstance(method, ast.Attribute)
        and method.attr == "raise_for_status"
        and isinstance(call, ast.Call)
        and call.func is method
    )


def _copied_to(node: ast.AST, parents: Parents) -> ast.Name | None:
    """The name `node` is the whole value of, in `name = node`; None otherwise."""
    parent = parents.get(node)
    if isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1:
        target = parent.targets[0]
        return target if isinstance(target, ast.Name) else None
    return None


def _tested(node: ast.AST, parents: Parents) -> bool:
    """True when the use looks at the value's truth, emptiness or kind (`if x`, `x or y`, `x is
    None`, `while not x`), or stands in an `if` test."""
    child, parent = node, parents.get(node)
    while parent is not None and not isinstance(parent, ast.stmt):
        if isinstance(parent, ast.BoolOp | ast.Compare) or (
            isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
        ):
            return True
        if isinstance(parent, ast.IfExp) and child is parent.test:
            return True
        child, parent = parent, parents.get(parent)
    return isinstance(parent, ast.If | ast.While | ast.Assert) and child is parent.test


def _only_shown(node: ast.expr, parents: Parents) -> bool:
    """True when the use only shows, measures or loops over the value: the value itself (not an
    attribute, an item or a sum of it) is an argument of a message helper, of `len`, `str`,
    `print` or a log call, or what a `for` runs over. A dictionary's item read with `d["k"]` is
    never only shown: the read itself fails when the key is missing."""
    if isinstance(node, ast.Subscript):
        return False
    child: ast.AST = node
    parent = parents.get(node)
    if isinstance(parent, ast.For | ast.AsyncFor | ast.comprehension) and child is parent.iter:
        return True
    while isinstance(parent, SHOWN_IN):
        child, parent = parent, parents.get(parent)
    if not isinstance(parent, ast.Call) or child is parent.func:
        return False
    name = _called_name(parent)
    return (
        bool(HELPER.match(name)) or name in SHOWS or (isinstance(parent.func, ast.Attribute) and name in LOGS)
    )


def _shown(node: ast.AST, parents: Parents) -> str:
    """The line of code that holds `node`: a simple statement whole, a compound one's head."""
    child, parent = node, parents.get(node)
    while parent is not None and not isinstance(parent, ast.stmt):
        child, parent = parent, parents.get(parent)
    if parent is None:
        return ast.unparse(child)
    if isinstance(parent, ast.If | ast.While | ast.For | ast.AsyncFor | ast.With | ast.AsyncWith | ast.Match):
        return ast.unparse(child)
    return ast.unparse(parent)


# Walks in the order the code runs -----------------------------------------------------------


def _following(statement: ast.stmt, code: _Code) -> list[ast.stmt]:
    """The statements that run after `statement` completes, in order, up to the end of the
    function or of the loop body it sits in, and up to the first `return` or `raise` among them."""
    found: list[ast.stmt] = []
    current: ast.AST = statement
    while current is not code.function:
        parent = code.parents.get(current)
        field = _field(parent, current) if parent is not None else None
        if parent is None or field is None:
            break
        block = getattr(parent, field)
        if field not in ("handlers", "cases"):  # another handler or case does not run after this one
            found += block[block.index(current) + 1 :]
        if parent is code.function or isinstance(parent, SCOPES):
            break
        if isinstance(parent, LOOPS) and field == "body":
            break  # next comes the loop's next round, with other values
        if isinstance(parent, ast.Try | ast.TryStar):
            found += [*parent.orelse, *parent.finalbody] if field == "body" else []
            found += parent.finalbody if field in ("handlers", "orelse") else []
        current = parent
    ended = next((n for n, s in enumerate(found) if isinstance(s, ast.Return | ast.Raise)), None)
    return found if ended is None else found[: ended + 1]


def _field(parent: ast.AST, child: ast.AST) -> str | None:
    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and any(item is child for item in block):
            return field
    return None


def _walk(statements: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of `statements` in the order Python evaluates them (an assignment's value before
    its targets, a loop's iterable before its target), not entering nested functions or classes."""
    for statement in statements:
        yield from _in_order(statement)


def _in_order(node: ast.AST) -> Iterator[ast.AST]:
    yield node
    if isinstance(node, SCOPES):
        return
    if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        parts: list[ast.AST] = [*([node.value] if node.value is not None else []), *targets]
    elif isinstance(node, ast.For | ast.AsyncFor):
        parts = [node.iter, node.target, *node.body, *node.orelse]
    elif isinstance(node, ast.comprehension):
        parts = [node.iter, node.target, *node.ifs]
    elif isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp):
        parts = [*node.generators, node.elt]
    elif isinstance(node, ast.DictComp):
        parts = [*node.generators, node.key, node.value]
    else:
        parts = list(children(node))
    for part in parts:
        yield from _in_order(part)


# R092 ----------------------------------------------------------------------------------------


def _unbound(code: _Code) -> Iterator[Finding]:
    for node in own_nodes(code.function):
        if not isinstance(node, ast.Try | ast.TryStar):
            continue
        handlers = [h for h in node.handlers if _answer(h.body) is not None and not _ends(h.body)]
        if not handlers or _in_loop(node, code) or _ends(node.finalbody):
            continue
        binds = [(handler, _bound_in(handler.body) | {handler.name or ""}) for handler in handlers]
        ruled_out = _bound_before(node, code) | _bound_in(node.finalbody)
        candidates: dict[str, ast.ExceptHandler] = {}
        for name in sorted(_bound_in(node.body) - ruled_out):
            handler = next((h for h, bound in binds if name not in bound), None)
            if handler is not None and _may_fail_before(node.body, name):
                candidates[name] = handler
        found = _first_read(node, candidates, code) if candidates else None
        if found is not None:
            use, name = found
            yield UNBOUND.at(
                Location(code.display, use.lineno, use.col_offset + 1),
                name=name,
                try_line=node.lineno,
                handler=candidates[name].lineno,
            )


def _in_loop(node: ast.AST, code: _Code) -> bool:
    parent = code.parents.get(node)
    while parent is not None and parent is not code.function:
        if isinstance(parent, LOOPS):
            return True
        parent = code.parents.get(parent)
    return False


def _bound_in(statements: list[ast.stmt]) -> set[str]:
    """The names `statements` bind (assignments, loop and `with` targets, imports, definitions)."""
    names: set[str] = set()
    for node in _walk(statements):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
    return names


def _bound_before(node: ast.stmt, code: _Code) -> set[str]:
    """The names the function binds before `node` (its parameters, and bindings written earlier),
    and those it declares global or nonlocal."""
    arguments = code.function.args
    names = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
    names |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
    start = (node.lineno, node.col_offset)
    for other in own_nodes(code.function):
        if isinstance(other, ast.Global | ast.Nonlocal):
            names.update(other.names)
        elif isinstance(other, ast.Name) and not isinstance(other.ctx, ast.Load):
            names |= {other.id} if (other.lineno, other.col_offset) < start else set()
        elif isinstance(
            other, ast.Import | ast.ImportFrom | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
        ):
            names |= _bound_in([other]) if other.lineno < node.lineno else set()
    return names


def _may_fail_before(body: list[ast.stmt], name: str) -> bool:
    """True when the `try` body may fail before it binds `name`: a statement up to the one that
    binds it calls, indexes, reads an attribute, awaits or computes something."""
    for statement in body:
        if any(
            isinstance(n, ast.Call | ast.Subscript | ast.Attribute | ast.Await | ast.BinOp)
            for n in ast.walk(statement)
        ):
            return True
        if name in _bound_in([statement]):
            return False
    return False


def _first_read(
    node: ast.stmt, candidates: dict[str, ast.ExceptHandler], code: _Code
) -> tuple[ast.Name, str] | None:
    """The first read, after the `try` `node`, of a name it may leave unbound, when it runs on
    every path that leaves the `try` and nothing around it catches the error."""
    pending = set(candidates)
    following = _following(node, code)
    for index, statement in enumerate(following):
        for inner in _walk([statement]):
            if not (isinstance(inner, ast.Name) and inner.id in pending):
                continue
            if not isinstance(inner.ctx, ast.Load):
                pending.discard(inner.id)
                continue
            if not _runs_with(inner, statement, code.parents) or _ends(following[:index]):
                return None  # in a branch, or after a `return` a flag may take: not on every path
            caught = any(
                names & CATCHES_UNBOUND for _h, names in handlers_around(inner, code.function, code.parents)
            )
            return None if caught else (inner, inner.id)
        if not pending:
            return None
    return None


def _runs_with(node: ast.AST, statement: ast.stmt, parents: Parents) -> bool:
    """True when running `statement` always evaluates `node` (no branch, loop body or
    short-circuit between them)."""
    child, parent = node, parents.get(node)
    while parent is not None and child is not statement:
        if not always_evaluates(parent, child):
            return False
        child, parent = parent, parents.get(parent)
    return child is statement


# R112 ----------------------------------------------------------------------------------------


def _silent(code: _Code) -> Iterator[Finding]:
    for node in own_nodes(code.function):
        if not isinstance(node, ast.Try | ast.TryStar) or _in_loop(node, code):
            continue
        if not _yield_in(node.body) or _yield_in(_following(node, code)):
            continue
        handler = next((h for h in node.handlers if not _yield_in(h.body) and not _ends(h.body)), None)
        if handler is None:
            continue
        yield SILENT.at(
            Location(code.display, handler.lineno, handler.col_offset + 1),
            try_line=node.lineno,
            does=_handler_does(handler),
        )


def _yield_in(statements: list[ast.stmt]) -> bool:
    return any(isinstance(node, ast.Yield | ast.YieldFrom) for node in _walk(statements))


def _handler_does(handler: ast.ExceptHandler) -> str:
    """What a handler that neither answers nor ends does, in a few words."""
    calls = [node for node in _walk(handler.body) if isinstance(node, ast.Call)]
    if any(
        _called_name(call) in LOGS | {"print", "print_exc"} or "log" in _called_name(call).lower()
        for call in calls
    ):
        return "logs the error"
    if all(isinstance(statement, ast.Pass) for statement in handler.body):
        return "passes"
    return "carries on"
