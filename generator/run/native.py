"""Native libraries in the wheels a plugin ships, against the architectures its manifest declares.

Dify runs a plugin on the machine architectures `meta.arch` names (amd64, arm64). A wheel tagged
`py3-none-any` installs anywhere, whatever native code it holds, so an aarch64 `.so` inside it is
installed into an amd64 environment without a word and only fails when it is imported ("invalid
ELF header", "cannot open shared object file"). The machine of each ELF library is read from its
header (`e_machine`), never by loading it.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Iterable

from generator.findings import Finding, Location, Severity
from generator.load.reader import PluginReader
from generator.rules import Listing, rule
from generator.run.cache import MAX_HASHED_BYTES

FOREIGN_LIBRARY = rule(
    "R057",
    "native-library-architecture",
    Severity.WARNING,
    "{wheel!s} holds native libraries built for {built!s} only ({files!s}), but the manifest declares "
    "{declared!s}",
    "Ship a wheel built for each architecture in meta.arch (or the pure-Python package), or declare the "
    "architecture the libraries are built for.",
    """
Dify installs and runs a plugin on the architectures its manifest declares (`meta.arch`). A wheel
the plugin ships whose native libraries (`.so` files) are all built for other machines installs
without complaint when it is tagged `py3-none-any`, and then fails the moment the library is
imported, on every machine of an architecture it declares and the libraries do not fit (a plugin
declaring amd64 and arm64 with only aarch64 libraries fails on every amd64 machine). The runner
reads each library's ELF header;
the finding is a warning because a library that is never imported does no harm.
""",
)

# ELF e_machine values, and Dify's names of the architectures (`meta.arch`)
MACHINES = {0x3E: "amd64", 0xB7: "arm64", 0x03: "386", 0x28: "arm", 0xF3: "riscv64", 0x15: "ppc64"}
MAX_MEMBERS = 5000
HEADER = 20


def foreign_libraries(
    reader: PluginReader, declared: Iterable[str], shown: Callable[[str], str]
) -> list[Finding]:
    """One warning per shipped wheel whose native libraries leave a declared architecture without
    one: Dify installs the plugin on every architecture it declares, and on that one the import fails."""
    wanted = {str(arch) for arch in declared}
    if not wanted:
        return []
    findings = []
    for file in reader.local_files():
        if not file.relative.endswith(".whl"):
            continue
        data = reader.listed_head(file, MAX_HASHED_BYTES, keep=False)
        built = _libraries(data) if data is not None else {}
        machines = set(built.values())
        if built and wanted & set(MACHINES.values()) - machines:
            findings.append(
                FOREIGN_LIBRARY.at(
                    Location(shown(file.relative), 1, 1),
                    wheel=file.relative,
                    built=Listing(sorted(machines)),
                    files=Listing(sorted(built), most=3),
                    declared=Listing(sorted(wanted)),
                )
            )
    return findings


def _libraries(data: bytes) -> dict[str, str]:
    """Member name -> architecture of every ELF shared library in a wheel (a zip)."""
    found: dict[str, str] = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist()[:MAX_MEMBERS]:
                name = info.filename
                if info.is_dir() or not (name.endswith(".so") or ".so." in name.rsplit("/", 1)[-1]):
                    continue
                with archive.open(info) as member:
                    header = member.read(HEADER)
                machine = _machine(header)
                if machine:
                    found[name] = machine
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, RuntimeError):
        return {}
    return found


def _machine(header: bytes) -> str:
    """The architecture an ELF header names ("" for anything else)."""
    if len(header) < HEADER or header[:4] != b"\x7fELF":
        return ""
    code = int.from_bytes(header[18:20], "little" if header[5] == 1 else "big")
    return MACHINES.get(code, f"machine {code:#x}")
