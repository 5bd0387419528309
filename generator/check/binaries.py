"""Submission check: native code, archives and copies of the plugin daemon in the package, found by
their first bytes (a renamed file keeps them) and by their names."""

from __future__ import annotations

import re
from collections.abc import Iterable

from generator.check import CheckContext
from generator.check.common import submission_only
from generator.check.submission import unwanted_reason
from generator.findings import Finding, Location, Severity
from generator.load.crawl import LoadedPlugin
from generator.rules import rule

_MAGIC = (
    (b"\x7fELF", "a Linux executable or shared library (ELF)"),
    (b"MZ", "a Windows executable or DLL (PE)"),
    (b"\xfe\xed\xfa\xce", "a macOS executable (Mach-O)"),
    (b"\xfe\xed\xfa\xcf", "a macOS executable (Mach-O)"),
    (b"\xce\xfa\xed\xfe", "a macOS executable (Mach-O)"),
    (b"\xcf\xfa\xed\xfe", "a macOS executable (Mach-O)"),
    (b"\xca\xfe\xba\xbe", "a macOS universal executable (Mach-O) or a Java class"),
    (b"\x00asm", "WebAssembly code"),
    (b"PK\x03\x04", "a zip archive"),
    (b"PK\x05\x06", "a zip archive"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"BZh", "a bzip2 archive"),
    (b"\xfd7zXZ\x00", "an xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
)
_SUFFIXES = {
    ".so": "a native shared library",
    ".pyd": "a native Python extension",
    ".dll": "a Windows DLL",
    ".dylib": "a macOS library",
    ".exe": "a Windows executable",
    ".node": "a native Node.js addon",
    ".whl": "a Python wheel",
    ".jar": "a Java archive",
    ".zip": "a zip archive",
    ".tar": "a tar archive",
    ".gz": "a gzip archive",
    ".tgz": "a gzip archive",
    ".bz2": "a bzip2 archive",
    ".xz": "an xz archive",
    ".7z": "a 7-Zip archive",
    ".rar": "a RAR archive",
}
# What the pre-check blocks outright (native code), as opposed to what it sends to a reviewer.
NATIVE = frozenset(
    {
        "a Linux executable or shared library (ELF)",
        "a Windows executable or DLL (PE)",
        "a macOS executable (Mach-O)",
        "a macOS universal executable (Mach-O) or a Java class",
        "a native shared library",
        "a native Python extension",
        "a Windows DLL",
        "a macOS library",
        "a Windows executable",
        "a native Node.js addon",
        "a copy of the Dify plugin daemon",
    }
)
# Office and e-book documents are zip files inside; a template a tool fills is data, not a bundle.
_ZIP_DOCUMENTS = (".docx", ".xlsx", ".pptx", ".odt", ".ods", ".odp", ".epub")
_SHARED_LIBRARY = re.compile(r"\.so(\.\d+)+$")
# The release files of langgenius/dify-plugin-daemon, which a plugin must never carry.
_DAEMON = re.compile(r"^dify-plugin-(linux|darwin|windows)-.+", re.IGNORECASE)

BINARY_FILE = rule(
    "U015",
    "binary-file",
    Severity.WARNING,
    "{path} is {what}",
    "Ship source code only: Dify installs dependencies from requirements.txt; if the file must stay, say "
    "why in the submission, a reviewer decides.",
    """
The marketplace's pre-check (`check-package-contents.py` of `langgenius/dify-marketplace-toolkit`)
sends archives (`.zip`, `.tar`, `.gz`, `.7z`, ...) to a reviewer. The registry reports them, and
WebAssembly and archives found by their first bytes too (a wheel or jar inside the package is an
archive), as a warning with the file: Dify itself installs such a package, and a reviewer may accept
a file that is explained. Office documents, which are zip files inside, are not reported. Native
code is rule U030.
""",
)
NATIVE_FILE = rule(
    "U030",
    "native-binary",
    Severity.ERROR,
    "{path} is {what}, which the marketplace's pre-check refuses outside a wheel",
    "Remove it: depend on a package that ships it as a wheel (listed in requirements.txt), or build it "
    "at install time from source.",
    """
The marketplace's pre-check (`check-package-binaries.py` and `check-package-contents.py` of
`langgenius/dify-marketplace-toolkit`) looks at every packaged file's first bytes, since renaming a
file does not change them, and blocks ELF, Mach-O and Windows PE executables and libraries, the
suffixes `.so`, `.pyd`, `.dll`, `.dylib`, `.exe` and `.node`, and copies of the plugin daemon
(`dify-plugin-linux-*`, `dify-plugin-darwin-*`, `dify-plugin-windows-*.exe`). Inside a wheel the same
code only goes to a reviewer. Dify itself installs such a package, so without `--submission` there
is no finding; with it, the gate's verdict is an error.
""",
)


@submission_only
def check(loaded: LoadedPlugin, context: CheckContext) -> Iterable[Finding]:
    """Binaries and archives among the packaged files, only with `--submission`."""
    for file in loaded.reader.tree.files:
        if file.is_link or unwanted_reason(file.relative)[0]:
            continue
        what = binary_kind(file.relative, loaded.reader.listed_head(file, 8) or b"")
        if what:
            where = Location(loaded.display_path(file.relative), 1, 1)
            found = NATIVE_FILE if what in NATIVE else BINARY_FILE
            yield found.at(where, path=file.relative, what=what)


def binary_kind(relative: str, head: bytes) -> str:
    """What the file is when it is native code, an archive or a daemon copy; empty otherwise."""
    name = relative.rsplit("/", 1)[-1]
    lowered = name.lower()
    if _DAEMON.match(name):
        return "a copy of the Dify plugin daemon"
    if not lowered.endswith(_ZIP_DOCUMENTS):
        for magic, what in _MAGIC:
            if head.startswith(magic):
                return what
    suffix = "." + lowered.rsplit(".", 1)[-1] if "." in lowered else ""
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    if _SHARED_LIBRARY.search(lowered):
        return _SUFFIXES[".so"]
    return ""
