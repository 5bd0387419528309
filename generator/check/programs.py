"""Programs a plugin runs that Dify's plugin daemon image does not have (R082), found in its code.

A plugin runs inside the daemon's container, with what its image installs. A tool that shells out to
`npx` or `pandoc` works on its author's machine (and on the registry's, so a run does not show it)
and answers "not found" for every user of Dify's images.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.check import CheckContext
from generator.check.common import called_name, every_node, fold_name, library_callables
from generator.check.plugin_code import imported_names, plugin_code, reachable_modules
from generator.check.sdk_index import declared_requirements
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import Listing, Phrase, rule

PROGRAM_MISSING = rule(
    "R082",
    "program-not-in-daemon-image",
    Severity.WARNING,
    "{call} {uses!s} {program}{lacks!s}: in Dify {outcome!s}, whatever the inputs{also!s}",
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
passed; the first word of a command string; for `shutil.which(name)` inside `for name in [...]`, the
literal candidates, told when the image has none of them), and calls of the libraries that run one
for the plugin: `pdf2image` (Poppler's `pdftoppm`), `pytesseract` (`tesseract`), `pdfkit` and
`imgkit` (`wkhtmltopdf`, `wkhtmltoimage`), `pypandoc` (`pandoc`), `python-nmap`'s scanners (`nmap`),
`rarfile` (it reads an archive's headers itself and needs `unrar`, `unar`, `7z` or `bsdtar` for
compressed members: the archive's opening is reported), and Playwright's `chromium.launch()` (the
pip package ships the driver; `playwright install` downloads the browsers), in the modules the SDK
loads, and stays silent when the plugin's dependency files name a package that ships the program
(`nodejs-bin`, `pypandoc-binary`, `playwright`...) or its files install one with a package manager.
A warning: a self-hosted Dify may run the daemon on an image of its own.

Beyond those named programs, a program run by a literal name (through the calls above, or as the
`command` of an MCP stdio server, `StdioServerParameters(command=...)` of the `mcp` package or
`StdioServerParams` of AutoGen) that is none of the image's (`IMAGE`: the commands of Ubuntu 24.04's
base and of the packages the Dockerfile installs, `uv`, and the console scripts of what `uv pip
install --system dify_plugin` brings), no shell builtin, no file of the plugin, and whose name
shares no word with a package the plugin lists (a console script is mostly named after its
package: `yt-dlp`, `marker_single` from `marker-pdf`) is not found either: `mcp-grafana` with only
`httpx` listed. The daemon starts the plugin as `<venv>/bin/python -m <entrypoint>` with
`"PATH="+os.Getenv("PATH")`, its own PATH (`getInstanceCmd` in `internal/core/local_runtime/
subprocess.go`), so even a console script the plugin's environment installs is found only by its
path; the check stays silent on those all the same. Not told when the plugin's dependency file
has a line the registry cannot read, or the module looks the program up with `shutil.which` (the
plugin then has a way round). An absolute path outside the system's program folders (`/opt/anaconda3/envs/x/
bin/python`, `/Users/me/bin/tool`, `C:\\tools\\x.exe`) is a file of the author's machine: the
plugin is unpacked in a folder of the daemon's own, and the image has no such path (scratch
folders such as `/tmp` are not told: the plugin may write the program there first). These findings
stand where the program is named (the constant a call runs, the `command=` argument).
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
    "nmap": (),
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
    # python-nmap's scanners look for the nmap program when made (PortScannerError "nmap program was
    # not found in path")
    "nmap": (frozenset({"PortScanner", "PortScannerAsync", "PortScannerYield"}), "nmap"),
}
LIBRARY_FUNCTIONS = {module: functions for module, (functions, _) in LIBRARIES.items()}
# The package a library's module comes with, where the names differ, as a message names it.
LIBRARY_PACKAGES = {"nmap": "python-nmap"}
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
# The commands on the PATH of Dify's plugin daemon image (`docker/local.dockerfile`: `FROM
# ubuntu:24.04`, `apt-get install -y curl python3.12 python3.12-venv python3.12-dev python3-pip ffmpeg
# build-essential git cmake pkg-config libcairo2-dev libjpeg-dev libgif-dev tini` with what they
# recommend, `python3 -m pip install uv`, `uv pip install --system dify_plugin`): generous on
# purpose, a name missing here would be a false finding.
IMAGE = frozenset(
    (
        # Ubuntu's base: coreutils, util-linux, procps, findutils, grep, sed, gawk/mawk, tar,
        # gzip, debianutils, diffutils, hostname, login, passwd, perl-base, ncurses-bin, libc-bin,
        # apt and dpkg
        "[ arch b2sum base32 base64 basename basenc cat chcon chgrp chmod chown chroot cksum comm cp"
        " csplit cut date dd df dir dircolors dirname du echo env expand expr factor false fmt fold"
        " groups head hostid id install join link ln logname ls md5sum mkdir mkfifo mknod mktemp mv"
        " nice nl nohup nproc numfmt od paste pathchk pinky pr printenv printf ptx pwd readlink"
        " realpath rm rmdir runcon seq sha1sum sha224sum sha256sum sha384sum sha512sum shred shuf"
        " sleep sort split stat stdbuf stty sum sync tac tail tee test timeout touch tr true truncate"
        " tsort tty uname unexpand uniq unlink users vdir wc who whoami yes"
        " sh bash dash rbash grep egrep fgrep sed awk mawk gawk find xargs tar gzip gunzip zcat zgrep"
        " zless zmore zdiff uncompress which run-parts tempfile savelog diff cmp diff3 sdiff hostname"
        " domainname su login passwd chsh chfn newgrp perl clear tput reset tset infocmp tic ldd"
        " getent locale iconv ldconfig apt apt-get apt-cache apt-config apt-key dpkg dpkg-query"
        " dpkg-deb mount umount more script setsid flock getopt kill ps top free pgrep pkill pidof"
        " watch uptime vmstat w pmap pwdx renice logger lsblk findmnt ionice taskset rev column"
        " hexdump whereis namei mcookie look ipcs ipcrm lscpu nsenter unshare prlimit chrt"
        # the packages the Dockerfile installs and what they bring (build-essential's compilers and
        # binutils, dpkg-dev's bzip2, xz and patch, git's recommended less and ssh client, ca-certificates'
        # openssl)
        " curl python3 python3.12 python3-config python3.12-config pydoc3 pydoc3.12 pip pip3 pip3.12"
        " ffmpeg ffprobe ffplay gcc g++ cc c++ cpp gcc-13 g++-13 cpp-13 make ld ld.bfd ld.gold as ar nm"
        " objdump objcopy strip ranlib readelf size strings addr2line c++filt gprof patch bzip2 bunzip2"
        " bzcat xz unxz xzcat lzma unlzma lzcat git git-shell git-upload-pack git-receive-pack"
        " git-upload-archive less ssh scp sftp ssh-keygen ssh-agent ssh-add ssh-keyscan openssl"
        " cmake ctest cpack pkg-config pkgconf tini gpg gpgv dpkg-buildpackage dpkg-source"
        # pip's uv and the console scripts of dify_plugin and its dependencies, installed system-wide;
        # `python` too: a plugin's own environment has it
        " uv uvx flask normalizer httpx python"
    ).split()
)
# Words a shell reads itself: the first word of a command string that is no program.
SHELL_WORDS = frozenset(
    ". : [[ alias bg break builtin cd command continue declare eval exec exit export fg for if jobs"
    " let local read readonly return set shift source time trap type typeset ulimit umask unalias"
    " unset until wait while { (".split()
)
# Folders whose programs are the image's (an absolute path there is judged by its name) and scratch
# folders a plugin may write a program to before it runs it.
SYSTEM_FOLDERS = ("/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/", "/usr/local/sbin/")
SCRATCH_FOLDERS = ("/tmp/", "/var/tmp/", "/dev/", "/proc/", "/app/")
# MCP clients' descriptions of a server they start as a program (`command`, first argument too).
MCP_LAUNCHERS = frozenset({"StdioServerParameters", "StdioServerParams"})
# Words of package names that say nothing of the programs they install.
_GENERIC = frozenset({"python", "py", "mcp", "server", "cli", "client", "sdk", "api", "tool", "tools", "lib"})


@dataclass(frozen=True, slots=True)
class _Run:
    """A call that runs (or looks up) a program: where the program is named, the program as
    written (a path, or a name), the library that runs it for the plugin ("" when the plugin runs
    it itself), and whether the call only looks it up."""

    call: ast.Call
    named: ast.expr
    path: str
    library: str = ""
    looks_up: bool = False
    # run by a library known to need a program the image lacks (`MISSING` or a browser)
    known: bool = False

    @property
    def program(self) -> str:
        return self.path.replace("\\", "/").rsplit("/", 1)[-1]


def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """R082 once per program and file, at its first use, naming the other lines."""
    if loaded.plugin is None:
        return
    code = plugin_code(loaded)
    runs: list[tuple[str, _Run]] = []
    for module in reachable_modules(loaded, code):
        relative, tree = code.modules[module]
        runs.extend((relative, run) for run in [*_runs(tree), *_library_runs(tree)])
    if not runs or _installs(loaded):
        return
    dependencies = "\n".join(loaded.reader.text(name, _TEXT_LIMIT) or "" for name in DEPENDENCY_FILES).lower()
    listed = _listed(loaded)
    # a program the module looks up first is run only when found (the plugin has a way round)
    looked_up = {(relative, run.program) for relative, run in runs if run.looks_up}
    uses: dict[tuple[str, str], tuple[str, list[_Run]]] = {}
    for relative, run in runs:
        lacks = _lacks(loaded, run, dependencies, listed)
        if lacks != LACKS_IMAGE and (relative, run.program) in looked_up:
            continue
        if lacks:
            key = (relative, run.program if lacks == LACKS_IMAGE else run.path)
            uses.setdefault(key, (lacks, []))[1].append(run)
    for (relative, program), (lacks, found) in uses.items():
        display = loaded.display_path(relative)
        first = found[0]
        # A program the image is known to lack is told at the call; one nothing installs, or a path,
        # where it is named (a constant the calls run, a `command=` argument on a line of its own).
        named = lacks != LACKS_IMAGE and first.named.lineno != first.call.lineno
        where = first.named if named else first.call
        others = [f"{display}:{run.call.lineno}" for run in (found if named else found[1:])]
        yield PROGRAM_MISSING.at(
            Location(display, where.lineno, where.col_offset + 1),
            hint=None if lacks == LACKS_IMAGE else HINTS[lacks],
            call=ast.unparse(first.call.func)[:60],
            program=program,
            lacks=Phrase(lacks),
            outcome=Phrase(
                "it returns None and what needs the program never runs"
                if first.looks_up
                else "the program is not found"
            ),
            uses=Phrase(
                "looks up"
                if first.looks_up
                else f"runs, through {first.library},"
                if first.library
                else "runs"
            ),
            also=Phrase(f" ({'run at' if named else 'also at'} {Listing(others, most=8)})" if others else ""),
        )


LACKS_IMAGE = ", which Dify's plugin daemon image does not have"
LACKS_ANYWHERE = ", which neither Dify's plugin daemon image nor the plugin nor a package it lists installs"
LACKS_PATH = ", a path of the author's machine outside the plugin, which Dify's plugin daemon image lacks"
HINTS = {
    LACKS_ANYWHERE: "Add the package that installs {program} to the plugin's dependencies and run it by its"
    ' path (`Path(sys.executable).parent / "{program}"`: the daemon does not put the plugin\'s environment'
    " on PATH), ship it in the plugin, or do the work in Python.",
    LACKS_PATH: "Run a program the plugin ships or installs (`sys.executable` for the plugin's own Python),"
    " by a path inside the plugin's folder, not one of your machine.",
}


def _lacks(loaded: LoadedPlugin, run: _Run, dependencies: str, listed: list[str] | None) -> str:
    """Why Dify has no program where `run` runs it ("" when it may well have it)."""
    program, path = run.program, run.path
    if program in MISSING or run.known:
        return "" if any(word in dependencies for word in MISSING.get(program, ())) else LACKS_IMAGE
    if run.looks_up:
        return ""
    if path.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", path):
        system = path.startswith(SYSTEM_FOLDERS) and program in IMAGE
        return "" if system or path.startswith(SCRATCH_FOLDERS) else LACKS_PATH
    if "/" in path or "\\" in path or program in IMAGE or program in SHELL_WORDS:
        return ""  # a relative path: the plugin's own file, or one it makes
    shipped = any(file.relative.rsplit("/", 1)[-1] == program for file in loaded.reader.tree.files)
    if shipped or listed is None or any(_installs_program(name, program) for name in listed):
        return ""
    return LACKS_ANYWHERE


def _listed(loaded: LoadedPlugin) -> list[str] | None:
    """The names of the packages the plugin's dependency file lists; None when a line of it could not
    be read (it may install anything)."""
    declared = declared_requirements(loaded.reader)
    if declared is None:
        return []
    requirements, complete = declared
    return [requirement.name for requirement in requirements] if complete else None


def _installs_program(package: str, program: str) -> bool:
    """True when `package` may install a console script named `program`: the same name, or a word
    of both that says something (`marker_single` from `marker-pdf`)."""
    if fold_name(package) == fold_name(program):
        return True
    words = {w for w in re.split(r"[^a-z0-9]+", program.lower()) if len(w) >= 3} - _GENERIC
    return bool(words & set(re.split(r"[^a-z0-9]+", package.lower())))


def _installs(loaded: LoadedPlugin) -> bool:
    """True when a Python or shell file of the plugin runs a package manager's install: what it
    installs is not followed, so no program is judged missing."""
    for file in loaded.reader.tree.files:
        if file.relative.endswith((".py", ".sh")) or file.relative.endswith("Dockerfile"):
            text = (loaded.reader.text(file.relative, _TEXT_LIMIT) or "").lower()
            if any(installer in text for installer in INSTALLERS):
                return True
    return False


def _runs(tree: ast.Module) -> Iterator[_Run]:
    """Calls that run (or look up) a program named by a literal: the runners of `RUNNERS` and the
    MCP stdio servers of `MCP_LAUNCHERS`."""
    lists = _literal_lists(tree)
    texts = _literal_texts(tree)
    candidates = _loop_candidates(tree, lists)
    for node in every_node(tree):
        if not isinstance(node, ast.Call):
            continue
        if _is_runner(node.func) and node.args:
            argument: ast.expr | None = node.args[0]
        elif called_name(node.func).rsplit(".", 1)[-1] in MCP_LAUNCHERS:
            given = [k.value for k in node.keywords if k.arg == "command"]
            argument = given[0] if given else node.args[0] if node.args else None
        else:
            continue
        looks_up = isinstance(node.func, ast.Attribute) and node.func.attr == "which"
        if looks_up and isinstance(argument, ast.Name) and argument.id in candidates:
            argument = _first_missing(candidates[argument.id])  # `for name in ["soffice", ...]`
        named = _program(argument, lists, texts) if argument is not None else None
        if named is not None:
            yield _Run(node, named[0], named[1], looks_up=looks_up)


def _loop_candidates(tree: ast.Module, lists: dict[str, ast.List | None]) -> dict[str, list[ast.expr]]:
    """Loop names bound to the items of a literal list or tuple (or of a name bound once to one):
    `for name in ["soffice", "libreoffice"]`; a name looped over twice is left out."""
    found: dict[str, list[ast.expr] | None] = {}
    for node in every_node(tree):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            items = node.iter
            if isinstance(items, ast.Name):
                items = lists.get(items.id) or items
            name = node.target.id
            listed = list(items.elts) if isinstance(items, ast.List | ast.Tuple) else None
            found[name] = None if name in found else listed
    return {name: items for name, items in found.items() if items}


def _first_missing(items: list[ast.expr]) -> ast.expr | None:
    """The first candidate, when every one is a program the image lacks (a Windows `.exe` name
    aside); None when one may be found."""
    names = [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]
    if len(names) != len(items):
        return None
    unix = [name for name in names if not name.lower().endswith(".exe")]
    if not unix or any(name not in MISSING for name in unix):
        return None
    return next(item for item in items if isinstance(item, ast.Constant) and item.value == unix[0])


def _library_runs(tree: ast.Module) -> Iterator[_Run]:
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
            yield _Run(node, node, LIBRARIES[module][1], LIBRARY_PACKAGES.get(module, module), known=True)
        elif playwright and (browser := _launched_browser(node.func)):
            yield _Run(node, node, f"Playwright's {browser}", known=True)


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


def _program(
    argument: ast.expr, lists: dict[str, ast.List | None], texts: dict[str, ast.Constant | None]
) -> tuple[ast.Constant, str] | None:
    """The literal naming the program a runner's first argument runs, and the program as written
    (a path or a name): a string's first word (after `NAME=value` settings), a list's first item
    (a literal list, or a name bound once, to one), each maybe a name bound once to a string."""
    if isinstance(argument, ast.Name):
        argument = lists.get(argument.id) or argument
    if isinstance(argument, ast.List | ast.Tuple) and argument.elts:
        argument = argument.elts[0]
    if isinstance(argument, ast.Name):
        argument = texts.get(argument.id) or argument
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        words = [word for word in argument.value.split() if "=" not in word][:1]
        word = words[0].strip("\"'") if words else ""
        if word and not any(mark in word for mark in "$`{}()<>|;&*"):
            return argument, word
    return None


def _literal_texts(tree: ast.Module) -> dict[str, ast.Constant | None]:
    """Names bound in the module to a literal string; None for a name bound more than once."""
    found: dict[str, ast.Constant | None] = {}
    for node in every_node(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            value = node.value
            text = value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None
            found[name] = None if name in found else text
    return found


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
