"""A tool that answers that its work succeeded on a path where that work was skipped or failed
(R152), found without running it. R116 is the same idea for HTTP writes answered by any message.

A tool's answer is all the user and the next node learn of the call. When the one call that does
the tool's work (sends, publishes, uploads, writes) sits under an `if` on an optional parameter and
the success text follows that `if` unconditionally, leaving the parameter empty answers "Sent"
with nothing sent. When the plugin's own helper catches that call's failure, logs it and returns an
empty value (`{}`, `[]`, `None`, `""`), a caller that reads the empty value as "nothing went wrong"
answers "sent successfully" for every failure. Only literal success words count, and only when the
skip or the swallow is written in the code.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import every_node, statement_nodes, tool_module_tree
from generator.check.error_answers import LOOPS, yields_message
from generator.check.http_flow import WRITE_METHODS, answer_after, left_unbound, only_notes
from generator.check.passed_on import Scope, resolve, scope_of
from generator.check.sdk_file import own_nodes
from generator.check.select_options import read_of
from generator.check.unbound_paths import catches_all
from generator.check.undeclared import Function, Invoke, invokes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Phrase, rule

SUCCESS_WITHOUT_WORK = rule(
    "R152",
    "success-answered-without-work",
    Severity.WARNING,
    "this answer says the work succeeded ({said}), but {how!s}: the user and the next node are told it"
    " worked when it did not",
    "{fix!s}",
    """
A tool's answer is what its `_invoke` yields, and Dify hands it on as it is: the text to the user,
the JSON and variables to the next node. So a success text ("Sent", "success", "成功", "完了",
"sucesso") is a claim the code must make true on every path that reaches it.

Three paths are read, each only when the code shows it:

- The work is skipped. Dify leaves out of the parameters dictionary an optional parameter no one
  filled (`ToolNode._generate_parameters`, api/core/workflow/nodes/tool/tool_node.py: for a
  variable that does not exist, `if parameter.required: raise ...` else `continue`; an agent passes
  only what its model filled), so `tool_parameters.get("key")` is None, and a form field left empty
  arrives as "". Found in each tool's `_invoke`: an `if` with no `else` whose test is, or is an
  `and` of, the truth of such a read (of a parameter declared `required: false`, with no default in
  its YAML or in the `.get`), whose body holds the only call of `_invoke` that does the work (a
  call named for sending, publishing, posting, uploading, inserting, writing, committing or
  executing), followed in the same block, with only assignments and calls between, by a yielded
  message whose text says the work succeeded.
- The work fails and the failure is swallowed. An exception that leaves `_invoke` reaches Dify as
  the call's error (the SDK sends it with `stream_error_object`, `dify_plugin/plugin.py`,
  `_execute_request`); an `except` that only logs turns it into a normal return. Found in each
  tool's `_invoke`: a `try` around such a work call, or a statement calling a plugin function that
  holds one, whose `except` catches every error (bare, `Exception`, `BaseException`) and only logs,
  prints or passes, followed in the same block, with only assignments and calls between, by a
  yielded success message (not when the helper raises anywhere or holds the `try` in a loop: a
  retry). A narrower handler is passed over (other failures still reach Dify),
  and so are HTTP writes (`post`, `put`, `patch`, `delete`: R116's), and a `try` after which the
  code reads a name only its body binds (the failure then raises UnboundLocalError).
- The work fails and the failure becomes an empty value. Found in each tool's `_invoke`: a name
  set to the value of the plugin's own function (method, module function or imported plugin
  function) that holds a `try` around such a work call whose `except` only logs, prints or passes
  and then returns an empty value (`{}`, `[]`, `()`, `None`, `""`, `False`, `0`), then an `if`
  that tests the name's truth and answers success on its empty side (`if result: ... else: yield
  "sent"`, `if not result: yield "sent"`). `smtplib.SMTP.sendmail` returns the refused recipients
  as a dict ("This method will return normally if the mail is accepted for at least one recipient.
  Otherwise it will raise an exception. That is, if this method does not raise an exception, then
  someone should get your mail. If this method does not raise an exception, it returns a
  dictionary, with one entry for each recipient that was refused", the Python library reference),
  so `{}` is what a send that reached every recipient returns: the helper's `return {}` on failure
  is read as that.

A success text is a string literal (also a part of an f-string, a value of a dict, or the text of
a name the block sets before yielding it) holding a success word (English sent, success,
successful, successfully, succeeded, published, delivered, uploaded, posted; Chinese 成功, 已发送;
Japanese 完了, 成功, 送信しました; Portuguese and Spanish sucesso, enviado, enviada, éxito), or a
dict whose key `success` is `True`, and no failure word (fail, error, unable, not, 失败, 错误,
失敗, エラー, falha, erro). A warning: the call ends normally, with a false answer.
""",
)

# Words of a call's name (split on `_` and case) that say it does the tool's work.
WORK_WORDS = frozenset(
    {"send", "sendmail", "publish", "post", "put", "patch", "upload", "insert", "write", "commit", "execute"}
    | {"push", "notify", "deliver", "enqueue", "produce", "sendall"}
)
SUCCESS = re.compile(
    r"\b(success|successful|successfully|succeeded|sent|published|delivered|uploaded|posted|sucesso"
    r"|enviad[oa]s?|éxito)\b|成功|已发送|完了|送信しました",
    re.IGNORECASE,
)
FAILURE = re.compile(r"fail|error|unable|\bnot\b|\bno\b|失败|错误|失敗|エラー|falha|\berro\b", re.IGNORECASE)
EMPTY_VALUES = (None, "", False, 0)


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R152 in each tool's `_invoke`."""
    for invoke in invokes(loaded, loaded.plugin.tools if loaded.plugin else ()):
        module = tool_module_tree(loaded, invoke.tool)
        if module is None:
            continue
        scope = scope_of(loaded, *module)
        yield from _skipped(invoke)
        yield from _swallowed(invoke, scope)
        yield from _failed(invoke, scope)


# The work skipped -------------------------------------------------------------------------------


def _skipped(invoke: Invoke) -> Iterator[Finding]:
    function = invoke.function
    optional = {p.name for p in invoke.tool.parameters if not p.required and _empty_default(p.default)}
    works = [n for n in own_nodes(function) if isinstance(n, ast.Call) and _is_work(n)]
    for block in _blocks(function):
        for index, statement in enumerate(block):
            if not isinstance(statement, ast.If) or statement.orelse:
                continue
            inside = {id(n) for n in statement_nodes(statement.body)}
            skipped = [call for call in works if id(call) in inside]
            if not skipped or len(skipped) != len(works):
                continue  # no work under the `if`, or work done elsewhere too
            parameter = _optional_test(statement.test, function, invoke.dictionary, optional)
            answer = answer_after(block[index + 1 :])
            said = _success_text(answer, block[:index], function) if answer is not None else None
            if parameter is None or answer is None or said is None:
                continue
            how = (
                f"the only call that does it, `{_shown(skipped[0])}(...)` at line {skipped[0].lineno}, sits"
                f" under the `if` at line {statement.lineno}, which is false when the optional parameter"
                f' "{parameter}" is left empty, and this answer follows that `if` on both paths'
            )
            yield _finding(
                invoke,
                answer,
                said,
                how,
                f'Answer the case where "{parameter}" is empty (an `else` that says nothing was'
                " done, or an error), or declare the parameter `required: true`.",
            )


def _empty_default(default: object) -> bool:
    return default in EMPTY_VALUES or default in ([], {})


def _optional_test(test: ast.expr, function: Function, dictionary: str, optional: set[str]) -> str | None:
    """The optional parameter whose emptiness makes the test false: the test is its truth, or an
    `and` with its truth as one operand."""
    operands = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    for operand in operands:
        key = _read_key(operand, dictionary)
        if isinstance(operand, ast.Name):
            values = [
                n.value
                for n in own_nodes(function)
                if isinstance(n, ast.Assign | ast.AnnAssign)
                and n.value is not None
                and any(isinstance(t, ast.Name) and t.id == operand.id for t in _targets(n))
            ]
            key = _read_key(values[0], dictionary) if len(values) == 1 else None
        if key in optional:
            return key
    return None


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return list(node.targets) if isinstance(node, ast.Assign) else [node.target]


def _read_key(node: ast.expr, dictionary: str) -> str | None:
    """`key` for `dictionary.get("key")` with no default or an empty one."""
    key = read_of(node, dictionary) if isinstance(node, ast.Call) else None
    default = node.args[1] if isinstance(node, ast.Call) and len(node.args) > 1 else None
    if default is not None and not (isinstance(default, ast.Constant) and default.value in EMPTY_VALUES):
        return None
    return key


# The work failed, its failure swallowed ---------------------------------------------------------


def _swallowed(invoke: Invoke, scope: Scope) -> Iterator[Finding]:
    function = invoke.function
    for block in _blocks(function):
        for index, statement in enumerate(block):
            answer = answer_after(block[index + 1 :])
            if answer is None:
                continue
            found = _swallowing(statement, function, scope)
            if found is None or _left_unbound_after(statement, block, answer, function):
                continue
            said = _success_text(answer, block[index + 1 : block.index(answer)], function)
            if said is None:
                continue
            work, handler, where, through = found
            how = (
                f"`{_shown(work)}(...)`, the call that does it, is caught by the `except` at"
                f" {where}:{handler.lineno}, which only logs or passes"
            )
            if through:
                how += f", and `{through}(...)` goes on as if it worked"
            yield _finding(
                invoke,
                answer,
                said,
                how,
                "Let the failure reach the tool (`raise` in the `except`), or answer it there and `return`.",
            )


def _left_unbound_after(
    statement: ast.stmt, block: list[ast.stmt], answer: ast.stmt, function: Function
) -> bool:
    """A `try` whose failure leaves a name unbound that the code up to the answer reads: then the
    failure is not silent (R108 or an UnboundLocalError)."""
    following = block[block.index(statement) + 1 : block.index(answer) + 1]
    return isinstance(statement, ast.Try) and left_unbound(statement, following, function)


def _swallowing(
    statement: ast.stmt, function: Function, scope: Scope
) -> tuple[ast.Call, ast.ExceptHandler, str, str] | None:
    """The work call whose failure the statement swallows: a `try` of `_invoke` around it, or a
    plugin function called for nothing that holds one. HTTP writes are R116's."""
    if isinstance(statement, ast.Try):
        found = _swallowing_try(statement)
        return (*found, scope.relative, "") if found is not None else None
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return None
    target = resolve(statement.value, function, scope)
    if target is None:
        return None
    helper, home = target
    if _retries(helper):
        return None
    for node in own_nodes(helper):
        found = _swallowing_try(node) if isinstance(node, ast.Try) else None
        if found is not None:
            return (*found, home.relative, _shown(statement.value))
    return None


def _retries(helper: Function) -> bool:
    """The helper raises somewhere, or holds its `try` in a loop (a retry): a swallowed failure
    there may still end in an error."""
    nodes = own_nodes(helper)
    looped = any(
        isinstance(n, ast.Try) for loop in nodes if isinstance(loop, LOOPS) for n in every_node(loop)
    )
    return looped or any(isinstance(n, ast.Raise) for n in nodes)


def _swallowing_try(node: ast.Try) -> tuple[ast.Call, ast.ExceptHandler] | None:
    work = next((n for n in statement_nodes(node.body) if isinstance(n, ast.Call) and _is_work(n)), None)
    if work is None or _shown(work).split(".")[-1] in WRITE_METHODS:
        return None
    for handler in node.handlers:
        if catches_all(handler):
            return (work, handler) if only_notes(handler.body) else None
    return None


# The work failed, its failure made an empty value -----------------------------------------------


def _failed(invoke: Invoke, scope: Scope) -> Iterator[Finding]:
    function = invoke.function
    for block in _blocks(function):
        for index, statement in enumerate(block):
            if not (
                isinstance(statement, ast.Assign)
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, ast.Call)
            ):
                continue
            name = statement.targets[0].id
            swallowed = _swallowing_helper(statement.value, function, scope)
            if swallowed is None:
                continue
            for test in block[index + 1 :]:
                if not isinstance(test, ast.If):
                    continue
                side = _empty_side(test, name)
                answer = next((s for s in side if yields_message(s)), None) if side is not None else None
                said = _success_text(answer, side or [], function) if answer is not None else None
                if answer is None or said is None:
                    continue
                work, handler, empty, where = swallowed
                how = (
                    f"`{_shown(statement.value)}(...)` catches the failure of `{_shown(work)}(...)` at"
                    f" {where}:{handler.lineno}, only logs it and returns `{empty}`, which the `if` at"
                    f" line {test.lineno} reads as success"
                )
                yield _finding(
                    invoke,
                    answer,
                    said,
                    how,
                    "Let the helper raise (or return a value that says it failed) and answer the"
                    " failure here.",
                )
                break


def _swallowing_helper(
    call: ast.Call, caller: Function, scope: Scope
) -> tuple[ast.Call, ast.ExceptHandler, str, str] | None:
    """The work call of the plugin function `call` runs, the handler that turns its failure into an
    empty value, that value as written, and the helper's file."""
    target = resolve(call, caller, scope)
    if target is None:
        return None
    helper, home = target
    for node in own_nodes(helper):
        if not isinstance(node, ast.Try):
            continue
        work = next((n for n in statement_nodes(node.body) if isinstance(n, ast.Call) and _is_work(n)), None)
        if work is None:
            continue
        for handler in node.handlers:
            empty = _empty_return(handler.body)
            if empty is not None and only_notes(handler.body[:-1]):
                return work, handler, empty, home.relative
    return None


def _empty_return(body: list[ast.stmt]) -> str | None:
    """`{}` for a body that ends with `return {}` (or another empty value)."""
    last = body[-1] if body else None
    if not isinstance(last, ast.Return):
        return None
    value = last.value
    if value is None or (isinstance(value, ast.Constant) and value.value in EMPTY_VALUES):
        return ast.unparse(value) if value is not None else "None"
    if isinstance(value, ast.Dict | ast.List | ast.Tuple) and not _elements(value):
        return ast.unparse(value)
    return None


def _elements(value: ast.Dict | ast.List | ast.Tuple) -> list[ast.expr | None]:
    return list(value.keys) if isinstance(value, ast.Dict) else list(value.elts)


def _empty_side(test: ast.If, name: str) -> list[ast.stmt] | None:
    """The branch of the `if` that runs when `name` is empty: `else` of `if name:`, body of
    `if not name:`."""
    condition = test.test
    if isinstance(condition, ast.Name) and condition.id == name:
        return test.orelse or None
    if (
        isinstance(condition, ast.UnaryOp)
        and isinstance(condition.op, ast.Not)
        and isinstance(condition.operand, ast.Name)
        and condition.operand.id == name
    ):
        return test.body
    return None


# Shared -----------------------------------------------------------------------------------------


def _finding(invoke: Invoke, answer: ast.stmt, said: str, how: str, fix: str) -> Finding:
    return SUCCESS_WITHOUT_WORK.at(
        Location(invoke.display, answer.lineno, answer.col_offset + 1),
        said=said,
        how=Phrase(how),
        fix=Phrase(fix),
    )


def _blocks(function: Function) -> Iterator[list[ast.stmt]]:
    """The function's body and the bodies of its `if`s, `with`s, `try`s and loops."""
    pending: list[list[ast.stmt]] = [function.body]
    while pending:
        block = pending.pop()
        yield block
        for statement in block:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(statement, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    pending.append(inner)
            pending.extend(handler.body for handler in getattr(statement, "handlers", []))


def _is_work(call: ast.Call) -> bool:
    """A call whose name says it does the tool's work (sends, publishes, writes...)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    words = re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower().split("_")
    return bool(WORK_WORDS.intersection(words))


def _success_text(answer: ast.stmt, before: list[ast.stmt], function: Function) -> str | None:
    """The success words of the yielded message, or None when its text does not say success."""
    value = answer.value if isinstance(answer, ast.Expr) else None
    call = value.value if isinstance(value, ast.Yield) else None
    if not isinstance(call, ast.Call):
        return None
    texts: list[str] = []
    for argument in [*call.args, *(k.value for k in call.keywords)]:
        texts.extend(_texts(argument))
        if isinstance(argument, ast.Name):
            for statement in before:
                if isinstance(statement, ast.Assign | ast.AugAssign) and any(
                    isinstance(t, ast.Name) and t.id == argument.id
                    for t in (statement.targets if isinstance(statement, ast.Assign) else [statement.target])
                ):
                    texts.extend(_texts(statement.value))
    if any(FAILURE.search(text) for text in texts):
        return None
    said = [match.group(0) for text in texts for match in [SUCCESS.search(text)] if match]
    return f'"{said[0]}"' if said else None


def _texts(node: ast.expr) -> list[str]:
    """The string literals a message value shows: f-string parts, dict values (a key `success`
    whose value is True counts as the word), list items; not dict keys."""
    found: list[str] = []
    pending: list[ast.expr] = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            found.append(item.value)
        elif isinstance(item, ast.JoinedStr):
            pending.extend(item.values)
        elif isinstance(item, ast.Dict):
            for key, inner in zip(item.keys, item.values, strict=True):
                named = key.value if isinstance(key, ast.Constant) else None
                if named == "success" and isinstance(inner, ast.Constant) and inner.value is True:
                    found.append("success")
                pending.append(inner)
        elif isinstance(item, ast.List | ast.Tuple):
            pending.extend(item.elts)
        elif isinstance(item, ast.BinOp):
            pending.extend([item.left, item.right])
    return found


def _shown(call: ast.Call) -> str:
    return ast.unparse(call.func)
