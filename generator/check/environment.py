"""A plugin that takes its settings from environment variables nobody can set (R109), or that puts a
user's credential into its process's environment (R110), found without running.

Dify gives a plugin its settings through the provider's credentials and the tools' parameters; its
process's environment is the plugin daemon's, which no user of Dify can change.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import called_name, children, every_node, library_callables
from generator.check.plugin_code import plugin_code, reachable_functions, reachable_modules
from generator.check.sdk_file import own_nodes
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

ENV_NOBODY_SETS = rule(
    "R109",
    "setting-from-environment",
    Severity.WARNING,
    "{read} takes `{name}` from the process's environment, which Dify gives a plugin no way to set:"
    " on Dify Cloud and for users who install the plugin, this {outcome}",
    "Declare `{name}` as a provider credential (`credentials_for_provider`, read from"
    " `self.runtime.credentials`) or as a tool parameter, so that users can fill it in.",
    """
The plugin daemon starts a plugin's process with the daemon's own environment and adds only what it
needs: `cmd.Env = cmd.Environ()`, then `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` from its own settings,
`INSTALL_METHOD=local`, `PATH` and `DIFY_PLUGIN_SERVER_KEY` (dify-plugin-daemon,
`internal/core/local_runtime`, `getInstanceCmd`). Neither the manifest nor any screen of Dify can add a
variable to it: only whoever runs the daemon of a self-hosted Dify can, for every plugin at once.
What a user configures reaches the plugin as the provider's credentials
(`self.runtime.credentials`) and the tools' parameters. So `os.getenv("ACME_API_KEY")` reads None
for everyone else (and `os.environ["ACME_API_KEY"]` raises KeyError), while the plugin works on
its author's machine, where the variable is set.

Found without running, in the modules the SDK loads (at any depth, the module level included):
`os.environ["X"]`, `os.environ.get("X")` and `os.getenv("X")` with a literal name and no default
(or a default of None or ""). Names the daemon, the SDK (`DifyPluginEnv`: `INSTALL_METHOD`,
`REMOTE_INSTALL_*`, `MAX_*`...) or any process has (`PATH`, `HOME`, `TMPDIR`, locale, proxy and
`PYTHON*` variables), and those Dify's docker-compose gives the daemon from Dify's own settings
(`FILES_URL`, `CONSOLE_API_URL`...), are not judged; `.get` and `getenv` are judged only for names that say a
setting a user must give (`KEY`, `TOKEN`, `SECRET`, `PASSWORD`, `COOKIE`, `URL`, `HOST`,
`ENDPOINT`...). Silent when the read is a fallback (`credentials.get("k") or os.getenv("K")`, a
default of `.get`), and in a plugin that loads a `.env` file itself (`load_dotenv`). A warning: a
self-hosted Dify can set the variable for the daemon.
""",
)
CREDENTIAL_IN_ENV = rule(
    "R110",
    "credential-in-process-environment",
    Severity.WARNING,
    "{write} puts a value from {source} into the process's environment, which every call of the"
    " plugin shares: {outcome}",
    "Pass the value to the client that needs it (an argument, a session object of this call) instead"
    " of the process's environment.",
    """
The SDK runs each request of a plugin on a thread of one pool in one process
(`dify_plugin/core/server/io_server.py`: `ThreadPoolExecutor(max_workers=self.config.MAX_WORKER)`;
`MAX_WORKER` defaults to 1000, `config/config.py`), and the process serves every call of the
installed plugin, with whatever credentials each call carries. `os.environ` belongs to the
process: a key written there by one call is what a concurrent call with other credentials reads,
and `os.environ.setdefault(...)` keeps the first call's value for the life of the process, so a
user who changes the credential keeps getting the old one.

Found without running, in the functions of the modules the SDK loads: `os.environ[k] = v`,
`os.environ.setdefault(k, v)`, `os.environ.update(...)` or `os.putenv(k, v)` whose value reads the
provider's credentials (`self.runtime.credentials`, the `credentials` of `_validate_credentials`)
or the tool's parameters, directly or through a name the function binds to such a read; once per
function, at its first such write. A warning:
a plugin used with one credential at a time is not hurt.
""",
)
ENV_TABLE = {"os": frozenset({"environ", "getenv", "putenv"})}
# Variables every process, the daemon or the SDK has: reading them is not taking a user's setting.
_STANDARD = re.compile(
    r"(PATH|HOME|USER|USERNAME|LOGNAME|SHELL|PWD|TERM|TZ|LANG|LANGUAGE|TMPDIR|TEMP|TMP|HOSTNAME"
    r"|INSTALL_METHOD|HEARTBEAT_INTERVAL|HTTPX_TIMEOUT|DIFY_PLUGIN_.*|REMOTE_INSTALL_.*|SERVERLESS_.*"
    r"|MAX_REQUEST_TIMEOUT|MAX_INVOCATION_TIMEOUT|MAX_WORKER|LC_.*|PYTHON.*|(HTTPS?|NO|ALL)_PROXY"
    # Dify's docker-compose gives the daemon the settings it shares with Dify's API (FILES_URL...).
    r"|(INTERNAL_)?FILES_URL|(CONSOLE|SERVICE|APP)_(API|WEB)_URL|PLUGIN_.*)",
    re.IGNORECASE,
)
# Names that say a setting a user must give (a secret or an address).
_SETTING = re.compile(
    r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|COOKIE|CREDENTIAL|AUTH|URL|URI|HOST|ENDPOINT|ACCOUNT|BUCKET|SID",
    re.IGNORECASE,
)
_WRITES = frozenset({"setdefault", "update"})


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R109 at each read of a setting from the environment, R110 at each write of a credential."""
    if loaded.plugin is None:
        return
    code = plugin_code(loaded)
    modules = reachable_modules(loaded, code)
    trees = [code.modules[module] for module in modules]
    if any(_loads_dotenv(tree) for _relative, tree in trees):
        return
    for relative, tree in trees:
        names = library_callables(tree, ENV_TABLE)
        if names:
            yield from _reads(loaded.display_path(relative), tree, names)
    for display, tree, function in reachable_functions(loaded):
        names = library_callables(tree, ENV_TABLE)
        if names:
            yield from _writes(display, function, names)


def _loads_dotenv(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.Call)
        and called_name(node.func).rsplit(".", 1)[-1] in ("load_dotenv", "dotenv_values")
        for node in every_node(tree)
    )


def _is(node: ast.expr, names: dict[str, str], dotted: str) -> bool:
    """True when `node` is how the module names `dotted` (`os.environ`, `environ`...)."""
    return names.get(called_name(node)) == dotted


def _reads(display: str, tree: ast.Module, names: dict[str, str]) -> Iterator[Finding]:
    nodes = every_node(tree)
    parents = {id(child): node for node in nodes for child in children(node)}
    for node in nodes:
        if not isinstance(node, ast.expr):
            continue
        read = _read(node, names)
        if read is None:
            continue
        name, shown, subscript = read
        if _STANDARD.fullmatch(name) or (not subscript and not _SETTING.search(name)):
            continue
        if _fallback(node, parents):
            continue
        yield ENV_NOBODY_SETS.at(
            Location(display, node.lineno, node.col_offset + 1),
            read=shown,
            name=name,
            outcome="raises KeyError" if subscript else "reads None",
        )


def _read(node: ast.AST, names: dict[str, str]) -> tuple[str, str, bool] | None:
    """(variable, the read as written, whether it is a subscript) for a read with no default."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and _is(node.value, names, "os.environ")
    ):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value, f"{called_name(node.value)}[{key.value!r}]", True
        return None
    if not isinstance(node, ast.Call) or not node.args or node.keywords:
        return None
    func = node.func
    getter = isinstance(func, ast.Attribute) and func.attr == "get" and _is(func.value, names, "os.environ")
    if not (getter or _is(func, names, "os.getenv")):
        return None
    key = node.args[0]
    default = node.args[1] if len(node.args) > 1 else None
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
        return None
    if default is not None and not (isinstance(default, ast.Constant) and default.value in (None, "")):
        return None
    return key.value, f"{ast.unparse(func)}({key.value!r})", False


def _fallback(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """True when the read is one choice of several (`a or os.getenv("K")`) or the default of a
    `.get`."""
    child = node
    while (parent := parents.get(id(child))) is not None and not isinstance(parent, ast.stmt):
        if isinstance(parent, ast.BoolOp | ast.IfExp):
            return True
        if isinstance(parent, ast.Call) and any(arg is child for arg in parent.args[1:]):
            return True
        child = parent
    return False


def _writes(
    display: str, function: ast.FunctionDef | ast.AsyncFunctionDef, names: dict[str, str]
) -> Iterator[Finding]:
    nodes = own_nodes(function)
    tainted = _tainted_names(function, nodes)
    placed = [node for node in nodes if isinstance(node, ast.stmt | ast.expr)]
    for node in sorted(placed, key=lambda node: (node.lineno, node.col_offset)):
        write = _write(node, names)
        if write is None:
            continue
        shown, values = write
        source = next((found for value in values if (found := _source(value, tainted))), None)
        if source is None:
            continue
        setdefault = "setdefault" in shown
        yield CREDENTIAL_IN_ENV.at(
            Location(display, node.lineno, node.col_offset + 1),
            write=shown,
            source=source,
            outcome=(
                "the first call's value stays for the life of the process, and later calls with other"
                " credentials still use it"
                if setdefault
                else "a concurrent call with other credentials may read this call's value"
            ),
        )
        return  # one cause: the function's first such write tells it


def _write(node: ast.AST, names: dict[str, str]) -> tuple[str, list[ast.expr]] | None:
    """(the write as shown, the values it stores) for a write into the process's environment."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Subscript) and _is(target.value, names, "os.environ"):
                return f"{called_name(target.value)}[...] = ...", [node.value]
        return None
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in _WRITES and _is(func.value, names, "os.environ"):
        return f"{called_name(func.value)}.{func.attr}(...)", [*node.args, *(k.value for k in node.keywords)]
    if _is(func, names, "os.putenv"):
        return f"{called_name(func)}(...)", list(node.args[1:])
    return None


def _tainted_names(function: ast.FunctionDef | ast.AsyncFunctionDef, nodes: list[ast.AST]) -> dict[str, str]:
    """The function's names that hold a credential or a parameter, with where it comes from."""
    tainted: dict[str, str] = {}
    positional = [argument.arg for argument in [*function.args.posonlyargs, *function.args.args]]
    if function.name == "_invoke" and len(positional) >= 2:
        tainted[positional[1]] = "the tool's parameters"
    if function.name == "_validate_credentials" and len(positional) >= 2:
        tainted[positional[1]] = "the provider's credentials"
    for name in positional:  # a helper handed them
        if name == "tool_parameters":
            tainted[name] = "the tool's parameters"
        elif "credential" in name:
            tainted[name] = "the provider's credentials"
    for _round in range(2):  # a name bound from a name bound from a read
        for node in nodes:
            if isinstance(node, ast.Assign) and (source := _source(node.value, tainted)):
                for target in node.targets:
                    for bound in ast.walk(target):
                        if isinstance(bound, ast.Name):
                            tainted.setdefault(bound.id, source)
    return tainted


def _source(value: ast.expr, tainted: dict[str, str]) -> str | None:
    for node in ast.walk(value):
        if isinstance(node, ast.Attribute) and node.attr == "credentials":
            return "the provider's credentials"
        if isinstance(node, ast.Name) and node.id in tainted:
            return tainted[node.id]
    return None
