"""Pagefind 1.6's binary installed from an npm registry (a real HTTP server serving a package made
here): installed only when it matches its pinned integrity hash, and preferred by the build over the
wheel's binary once installed."""

from __future__ import annotations

import base64
import hashlib
import http.server
import io
import platform
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.site import pagefind_binary
from generator.site.pagefind_binary import InstallError, executable, install, installed_path

BINARY = b"#!/bin/sh\necho pagefind 1.6.0\n"


def package(binary: bytes, name: str = "package/bin/pagefind_extended") -> bytes:
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as archive:
        member = tarfile.TarInfo(name)
        member.size = len(binary)
        archive.addfile(member, io.BytesIO(binary))
    return data.getvalue()


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


@pytest.fixture
def registry() -> Iterator[tuple[str, dict[str, bytes]]]:
    """An npm-like registry on localhost serving the tarballs put in its dictionary, by path."""
    served: dict[str, bytes] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = served.get(self.path)
            self.send_response(200 if body is not None else 404)
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", served
    finally:
        server.shutdown()
        server.server_close()


def here(pin: str) -> dict[tuple[str, str], tuple[str, str]]:
    return {(platform.system(), platform.machine()): ("linux-x64", pin)}


TARBALL_PATH = f"/@pagefind/linux-x64/-/linux-x64-{pagefind_binary.VERSION}.tgz"


@pytest.mark.skipif(platform.system() == "Windows", reason="the binary's name differs on Windows")
def test_a_package_matching_its_pin_is_installed_and_preferred(
    registry: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, served = registry
    served[TARBALL_PATH] = tarball = package(BINARY)
    installed = install(tmp_path, url, here(integrity(tarball)))
    assert installed == installed_path(tmp_path)
    assert installed.read_bytes() == BINARY
    assert installed.stat().st_mode & 0o111
    assert executable(tmp_path) == installed


def test_a_package_that_does_not_match_its_pin_is_refused(
    registry: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, served = registry
    served[TARBALL_PATH] = package(BINARY + b"# changed on the way\n")
    with pytest.raises(InstallError, match="integrity"):
        install(tmp_path, url, here(integrity(package(BINARY))))
    assert not installed_path(tmp_path).exists()


def test_an_unreachable_registry_is_an_install_error(
    registry: tuple[str, dict[str, bytes]], tmp_path: Path
) -> None:
    url, _served = registry  # serves nothing: 404
    with pytest.raises(InstallError, match="cannot download"):
        install(tmp_path, url, here(integrity(b"")))


def test_without_the_installed_binary_the_wheel_is_used(tmp_path: Path) -> None:
    from pagefind_bin_extended import get_executable

    assert executable(tmp_path) == Path(get_executable())


def test_every_pin_is_a_sha512_of_its_package() -> None:
    for package_name, pin in pagefind_binary.PACKAGES.values():
        algorithm, _, digest = pin.partition("-")
        assert algorithm == "sha512", package_name
        assert len(base64.b64decode(digest)) == 64, package_name


def test_only_the_wheels_binary_loads_whole_dictionaries(tmp_path: Path) -> None:
    # The wheel's 1.5 loads Lindera's dictionaries (search.py then shares a Chinese and Japanese
    # run on a small site); the installed 1.6 segments with ICU4X.
    assert pagefind_binary.loads_dictionaries(tmp_path)
    binary = installed_path(tmp_path)
    binary.write_bytes(b"#!/bin/sh\n")
    binary.chmod(0o755)
    assert not pagefind_binary.loads_dictionaries(tmp_path)
