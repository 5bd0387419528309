"""Programs a plugin runs that Dify's plugin daemon image does not have (R082), found in its code.

A plugin runs inside the daemon's container, with what its image installs. A tool that shells out to
`npx` or `pandoc` works on its author's machine (and on the registry's, so a run does not show it)
and answers "not found" for every user of Dify's images.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from generator.check import CheckContext
from generator.check.common import called_name, every_node, library_callables
from generator.check.plugin_code import imported_names, plugin_code, reachable_modules
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, Phrase, rule

PROGRAM_MISSING = rule(
    "R082",
    "program-not-in-daemon-image",
    Severity.WARNING,
    "{call} {uses!s} {program}, which Dify's plugin daemon image does not have: in Dify {outcome!s},"
    " whatever the inputs{also!s}",
    "Do the work in Python (a library from PyPI), or list in the README that {program} must be"
    " installed in the daemon's image by whoever runs Dify.",
    """
Dify runs a plugin in the plugin daemon's container (`langgenius/dify-plugin-daemon`, image built by
`docker/local.dockerfile`): Ubuntu 24.04 with `curl python3.12 python3.12-venv python3.12-dev
python3-pip ffmpeg build-essential git cmake pkg-config libcairo2-dev libjpeg-dev libgif-dev tini`
installed by apt, and uv with `dify_plugin` by pip; the serverless image is Alpine with
ca-certificates and tzdata only. No Node.js (`node`, `npm`, `npx`), Java, Pandoc, LibreOffice, a
browser, Tesseract or Poppler is there. A plugin that runs one of these through `subprocess`,
`os.system`, `os.popen`, `asyncio.create_subprocess_*` or looks it up with `shutil.which` fails in
Dify for every user, while a run on a machine that has the program passes. The check reads literal
program names only (the first item of a literal argument list, or of a list bound once to the name
passed; the first word of a command string), and calls of the libraries that run one for the plugin:
`pdf2image` (Poppler's `pdftoppm`), `pytesseract` (`tesseract`), `pdfkit` and `imgkit`
(`wkhtmltopdf`, `wkhtmltoimage`), `pypandoc` (`pandoc`), `rarfile` (it reads an archive's headers
itself and needs `unrar`, `unar`, `7z` or `bsdtar` for compressed members: the archive's opening is
reported), and Playwright's `chromium.launch()` (the pip package ships the driver; `playwright install`
downloads the browsers), in the modules the SDK loads, and stays silent when the
plugin's dependency files name a package that ships the program (`nodejs-bin`, `pypandoc-binary`,
`playwright`...) or its files install one with a package manager. A warning: a self-hosted Dify
may run the daemon on an image of its own.
""",
)
# Programs the daemon's images lack, and the words of a dependency that would bring each.
MISSING: dict[str, tuple[str, ...]] = {
    "node": ("nodejs",),
    "nodejs": ("nodejs",),
    "npm": ("nodejs",),
    "npx": ("nodejs",),
    "yarn": ("nodejs",),
    "pnpm": ("nodejs",),
    "deno": ("deno",),
    "bun": ("bun",),
    "java": ("jdk", "jre", "java"),
    "pandoc": ("pandoc-binary", "pandoc_binary", "pypandoc-binary"),
    "soffice": ("libreoffice",),
    "libreoffice": ("libreoffice",),
    "chromium": ("playwright", "pyppeteer", "chromium"),
    "chromium-browser": ("playwright", "pyppeteer", "chromium"),
    "google-chrome": ("playwright", "pyppeteer", "chrome"),
    "wkhtmltopdf": ("wkhtmltopdf",),
    "tesseract": (),  # no PyPI package ships it (`pytesseract` is a wrapper)
    "pdftoppm": ("poppler",),
    "pdftotext": ("poppler",),
    "docker": ("docker",),
    "unrar": (),
    "wkhtmltoimage": (),
}
# Libraries whose functions run one of those programs: module -> (functions, program). A call of one
# fails the same way a `subprocess` call of the program would.
LIBRARIES: dict[str, tuple[frozenset[str], str]] = {
    "pdf2image": (
        frozenset({"convert_from_path", "convert_from_bytes", "pdfinfo_from_path", "pdfinfo_from_bytes"}),
        "pdftoppm",
    ),
    "pytesseract": (
        frozenset(
            {"image_to_string", "image_to_data", "image_to_boxes", "image_to_osd", "image_to_pdf_or_hocr"}
        ),
        "tesseract",
    ),
    "pdfkit": (frozenset({"from_url", "from_string", "from_file"}), "wkhtmltopdf"),
    "imgkit": (frozenset({"from_url", "from_string", "from_file"}), "wkhtmltoimage"),
    "pypandoc": (frozenset({"convert_text", "convert_file"}), "pandoc"),
    "rarfile": (frozenset({"RarFile"}), "unrar"),
}
LIBRARY_FUNCTIONS = {module: functions for module, (functions, _) in LIBRARIES.items()}
# Playwright's launchers: the pip package ships the driver, not the browsers (`playwright install`
# downloads them), and the daemon's image has none.
BROWSERS = frozenset({"chromium", "firefox", "webkit"})
LAUNCHERS = frozenset({"launch", "launch_persistent_context"})
DEPENDENCY_FILES = ("requirements.txt", "pyproject.toml")
# Words of a package manager installing something at run time: what it installs is not followed.
INSTALLERS = (
    "apt-get install",
    "apt install",
    "apk add",
    "yum install",
    "dnf install",
    "brew install",
    "playwright install",
    "download_pandoc",
)
RUNNERS = {
    "subprocess": frozenset(
        {"run", "Popen", "call", "check_call", "check_output", "getoutput", "getstatusoutput"}
    ),
    "os": frozenset({"system", "popen", "execvp", "execlp", "spawnlp", "spawnvp"}),
    "asyncio": frozenset({"create_subprocess_exec", "create_subprocess_shell"}),
    "shutil": frozenset({"which"}),
}
_TEXT_LIMIT = 1 << 20


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R082 once per program and file, at its first use, naming the other lines."""
    if loaded.plugin is None:
        return
    code = plugin_code(loaded)
    uses: dict[tuple[str, str], list[ast.Call]] = {}
    through: dict[tuple[str, str], str] = {}
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        for call, program, library in [*_runs(tree), *_library_runs(tree)]:
            uses.setdefault((relative, program), []).append(call)
            through.setdefault((relative, program), library)
    if not uses:
        return
    if _installs(loaded):
        return
    dependencies = "\n".join(loaded.reader.text(name, _TEXT_LIMIT) or "" for name in DEPENDENCY_FILES).lower()
    for (relative, program), calls in uses.items():
        if any(word in dependencies for word in MISSING.get(program, ())):
            continue
        display = loaded.display_path(relative)
        first = calls[0]
        looks_up = isinstance(first.func, ast.Attribute) and first.func.attr == "which"
        others = [f"{display}:{call.lineno}" for call in calls[1:]]
        yield PROGRAM_MISSING.at(
            Location(display, first.lineno, first.col_offset + 1),
            call=ast.unparse(first.func)[:60],
            program=program,
            outcome=Phrase(
                "it returns None and what needs the program never runs"
                if looks_up
                else "the program is not found"
            ),
            uses=Phrase(
                "looks up"
                if looks_up
                else f"runs, through {through[relative, program]},"
                if through[relative, program]
                else "runs"
            ),
            also=Phrase(f" (also at {Listing(others, most=8)})" if others else ""),
        )


def _installs(loaded: LoadedPlugin) -> bool:
    """True when a Python or shell file of the plugin runs a package manager's install: what it
    installs is not followed, so no program is judged missing."""
    for file in loaded.reader.tree.files:
        if file.relative.endswith((".py", ".sh")) or file.relative.endswith("Dockerfile"):
            text = (loaded.reader.text(file.relative, _TEXT_LIMIT) or "").lower()
            if any(installer in text for installer in INSTALLERS):
                return True
    return False


def _runs(tree: ast.Module) -> Iterator[tuple[ast.Call, str, str]]:
    """Calls that run (or look up) a program the image lacks, named by a literal."""
    lists = _literal_lists(tree)
    for node in every_node(tree):
        if not isinstance(node, ast.Call) or not _is_runner(node.func) or not node.args:
            continue
        program = _program(node.args[0], lists)
        if program in MISSING:
            yield node, program, ""


def _library_runs(tree: ast.Module) -> Iterator[tuple[ast.Call, str, str]]:
    """Calls of a library function that runs a program the image lacks (`pdf2image`'s
    `convert_from_path` runs `pdftoppm`), and Playwright browser launches in a module that imports
    Playwright."""
    callables = library_callables(tree, LIBRARY_FUNCTIONS)
    playwright = any(
        name.split(".")[0] == "playwright" for node in every_node(tree) for name in imported_names("", node)
    )
    for node in every_node(tree):
        if not isinstance(node, ast.Call):
            continue
        dotted = callables.get(called_name(node.func))
        if dotted is not None:
            module = dotted.split(".")[0]
            yield node, LIBRARIES[module][1], module
        elif playwright and (browser := _launched_browser(node.func)):
            yield node, f"Playwright's {browser}", ""


def _launched_browser(func: ast.expr) -> str:
    """`chromium` for `p.chromium.launch` (and firefox, webkit; `launch_persistent_context`)."""
    if (
        isinstance(func, ast.Attribute)
        and func.attr in LAUNCHERS
        and isinstance(func.value, ast.Attribute)
        and func.value.attr in BROWSERS
    ):
        return func.value.attr
    return ""


def _is_runner(func: ast.expr) -> bool:
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.attr in RUNNERS.get(func.value.id, frozenset())
    )


def _program(argument: ast.expr, lists: dict[str, ast.List | None]) -> str | None:
    """The program a runner's first argument names: a string's first word, a list's first item (a
    literal list, or a name bound once, to one)."""
    if isinstance(argument, ast.Name):
        argument = lists.get(argument.id) or argument
    if isinstance(argument, ast.List | ast.Tuple) and argument.elts:
        argument = argument.elts[0]
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        words = argument.value.split()
        return words[0].rsplit("/", 1)[-1] if words else None
    return None


def _literal_lists(tree: ast.Module) -> dict[str, ast.List | None]:
    """Names bound in the module to a literal list whose first item is a string; None for a name
    bound more than once (what it holds at a call is not known)."""
    found: dict[str, ast.List | None] = {}
    for node in every_node(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            value = node.value if isinstance(node.value, ast.List) else None
            found[name] = None if name in found else value
    return found
