"""Which Pagefind binary indexes the site, and how its newer release is installed.

Pagefind 1.6 segments Chinese and Japanese words with ICU4X instead of loading Lindera's whole
dictionaries: on the official catalog its Chinese run peaks at 134 MB instead of 383 MB, and its
Japanese run at 93 MB instead of 347 MB, with the same search results (benchmarks/README.md,
"The official build's memory"). PyPI's newest wheel (`pagefind_bin_extended`, the dependency) is
1.5.2; npm publishes 1.6.0's binary for each platform. `make setup` (and the publishing workflow)
run this module, which downloads that binary from npm, checks it against the integrity hash pinned
here, and puts it beside the environment's scripts; the build uses it when it is there, the wheel's
binary otherwise (the site is the same, the build needs more memory).

When PyPI has the 1.6 wheel, this module goes: pin `pagefind_bin_extended>=1.6,<1.7` instead.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import platform
import sys
import sysconfig
import tarfile
import urllib.request
from collections.abc import Mapping
from pathlib import Path

VERSION = "1.6.0"
# npm's package of the binary for each (system, machine), with the `dist.integrity` npm publishes
# for it (https://registry.npmjs.org/@pagefind/<package>/1.6.0).
PACKAGES: dict[tuple[str, str], tuple[str, str]] = {
    ("Linux", "x86_64"): (
        "linux-x64",
        "sha512-IbMSx/+Vr/Xk0TTBlLkjgK+rvnbOXGmmb2/MKxQu99AR5DsqQoV3NKEA9PQz2tAhuCZjeD5xJBp4w5N5DHIC7Q==",
    ),
    ("Linux", "aarch64"): (
        "linux-arm64",
        "sha512-SLB2I+XqCZma8NvIGIH8nyKblgKIxw5PmqsVtofWOKxNHhEtOEsddbqU+hsrNcT3EV0faM6UmKDHVIxcPYq29w==",
    ),
    ("Darwin", "x86_64"): (
        "darwin-x64",
        "sha512-rd3ZbtuxyYqjASKZAPuIV7eeQQHJ7VYpoNKKG8CvglaD3g30eT5Nb7XGNLYwVReBsCccpkURwrGwWjSwr8nyQQ==",
    ),
    ("Darwin", "arm64"): (
        "darwin-arm64",
        "sha512-611gl64aqN12UcMyKPtZ8+vRWBKlJFSh2JgO8uScxa1Eyjo1dXz9r4wZuRno0yCUE/KN0FauEoKZ3KEwUYHCCg==",
    ),
    ("Windows", "AMD64"): (
        "windows-x64",
        "sha512-cUA2+yXfbymdJllyMjY5YTBwuOgh0/H53Pn5fYKjDnDjk154Ft4U5RVj3TenWySPL/jG6zJfARUWSlyUyXHlZw==",
    ),
}
REGISTRY = "https://registry.npmjs.org"
MAX_TARBALL = 64 * 1024 * 1024  # 1.6.0's are 7-8 MB
TIMEOUT = 120


class InstallError(RuntimeError):
    """The binary could not be downloaded or did not match its pinned hash."""


def _suffix() -> str:
    return ".exe" if platform.system() == "Windows" else ""


def installed_path(scripts: Path | None = None) -> Path:
    """Where the binary is installed: beside the environment's scripts (`dify-registry`'s folder),
    its version in its name."""
    folder = scripts if scripts is not None else Path(sysconfig.get_path("scripts"))
    return folder / f"pagefind_extended-{VERSION}{_suffix()}"


def executable(scripts: Path | None = None) -> Path:
    """The Pagefind binary the build runs: the installed 1.6 binary when there is one, else the
    one of the `pagefind_bin_extended` wheel."""
    installed = installed_path(scripts)
    if installed.is_file() and os.access(installed, os.X_OK):
        return installed
    from pagefind_bin_extended import get_executable

    return Path(get_executable())


def loads_dictionaries(scripts: Path | None = None) -> bool:
    """Whether the binary the build runs is the wheel's (1.5), whose extended build loads Lindera's
    Japanese dictionary whole as soon as it meets Japanese text (about 1 s of CPU and 300 MB), where
    1.6 segments with ICU4X and loads none."""
    return executable(scripts) != installed_path(scripts)


def matches(data: bytes, integrity: str) -> bool:
    """True when `data` has npm's `sha512-<base64>` integrity."""
    algorithm, _, expected = integrity.partition("-")
    return algorithm == "sha512" and base64.b64encode(hashlib.sha512(data).digest()).decode() == expected


def binary_from(tarball: bytes) -> bytes:
    """The extended binary inside an npm package's tarball (`package/bin/pagefind_extended`)."""
    wanted = f"package/bin/pagefind_extended{_suffix()}"
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        member = archive.getmember(wanted)
        found = archive.extractfile(member) if member.isfile() else None
        if found is None:
            raise InstallError(f"{wanted} is not a file in the package")
        return found.read()


def install(
    scripts: Path | None = None,
    registry: str = REGISTRY,
    packages: Mapping[tuple[str, str], tuple[str, str]] = PACKAGES,
) -> Path:
    """Download this platform's binary from `registry`, check it against its pin in `packages`, and
    install it; the path."""
    key = (platform.system(), platform.machine())
    if key not in packages:
        raise InstallError(f"npm has no Pagefind {VERSION} binary for {key[0]} {key[1]}")
    package, integrity = packages[key]
    url = f"{registry}/@pagefind/{package}/-/{package}-{VERSION}.tgz"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            tarball = response.read(MAX_TARBALL + 1)
    except OSError as error:
        raise InstallError(f"cannot download {url}: {error}") from error
    if len(tarball) > MAX_TARBALL or not matches(tarball, integrity):
        raise InstallError(f"{url} does not match the integrity hash pinned for it")
    target = installed_path(scripts)
    partial = target.with_name(target.name + ".partial")
    partial.write_bytes(binary_from(tarball))
    partial.chmod(0o755)
    partial.replace(target)
    return target


def main() -> int:
    """Install the binary; on failure say so and keep the wheel's (exit 0: the build still works)."""
    if installed_path().is_file():
        print(f"Pagefind {VERSION}: {installed_path()}")
        return 0
    try:
        path = install()
    except (InstallError, OSError, KeyError, tarfile.TarError) as error:
        print(f"Pagefind {VERSION} not installed ({error}); the build uses the wheel's", file=sys.stderr)
        return 0
    print(f"Pagefind {VERSION}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
