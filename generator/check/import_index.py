"""Which top-level modules a distribution installs, and what it depends on, for the SDK and the
packages around it: read from real installs, so an import a listed package brings along is never
called missing.

`import_index.json` (beside this module) holds, per distribution, its import names and the
distributions it requires (extras left out), read from the `.dist-info` of installed environments
and wheels: `python -m generator.check.import_index SITE_PACKAGES_OR_WHEEL...` writes it again
(the committed index was read from an environment holding dify_plugin 0.10.2 with its dependencies,
and from the wheels of dify_plugin 0.0.1b40 to 0.7.0 and of the two packages only older SDKs need,
pydub and dpkt; then, with `--add`, from an environment holding pandas 3.1, beautifulsoup4, httpx and
the packages pandas and BeautifulSoup use for some features (tabulate, openpyxl, xlrd, xlsxwriter,
lxml, html5lib, jinja2: R147 asks whether a plugin installs them), and from the wheels of pandas
2.2.3, python-dateutil 2.9, pytz and beautifulsoup4 4.12; pip and setuptools taken out again). For
distributions the index does not hold, `ALIASES` gives the import names of common packages whose
name differs from their module; any other installs the module of its own name (`-` and `.` read as
`_`).
"""

from __future__ import annotations

import json
import sys
import zipfile
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from generator.run.uvsync import DAEMON_MARKERS

INDEX = Path(__file__).with_name("import_index.json")
SDK = "dify-plugin"
# Common distributions whose module has another name (PyPI name -> modules), for those the index
# does not hold.
ALIASES: dict[str, tuple[str, ...]] = {
    "pillow": ("PIL",),
    "pyyaml": ("yaml",),
    "opencv-python": ("cv2",),
    "opencv-python-headless": ("cv2",),
    "opencv-contrib-python": ("cv2",),
    "opencv-contrib-python-headless": ("cv2",),
    "beautifulsoup4": ("bs4",),
    "mysql-connector-python": ("mysql",),
    "mysql-connector": ("mysql",),
    "python-dateutil": ("dateutil",),
    "scikit-learn": ("sklearn",),
    "scikit-image": ("skimage",),
    "python-docx": ("docx",),
    "python-pptx": ("pptx",),
    "pymupdf": ("fitz", "pymupdf"),
    "pycryptodome": ("Crypto",),
    "pycryptodomex": ("Cryptodome",),
    "protobuf": ("google",),
    "google-api-python-client": ("googleapiclient",),
    "psycopg2-binary": ("psycopg2",),
    "psycopg-binary": ("psycopg",),
    "pyjwt": ("jwt",),
    "python-dotenv": ("dotenv",),
    "attrs": ("attr", "attrs"),
    "faiss-cpu": ("faiss",),
    "faiss-gpu": ("faiss",),
    "pdfminer-six": ("pdfminer",),
    "pypdf2": ("PyPDF2",),
    "readability-lxml": ("readability",),
    "newspaper3k": ("newspaper",),
    "yt-dlp": ("yt_dlp",),
    "ffmpeg-python": ("ffmpeg",),
    "speechrecognition": ("speech_recognition",),
    "gtts": ("gtts",),
    "fpdf2": ("fpdf",),
    "python-slugify": ("slugify",),
    "pytelegrambotapi": ("telebot",),
    "python-telegram-bot": ("telegram",),
    "discord-py": ("discord",),
    "websocket-client": ("websocket",),
    "pyserial": ("serial",),
    "python-magic": ("magic",),
    "pymongo": ("pymongo", "bson", "gridfs"),
    "paho-mqtt": ("paho",),
    "grpcio": ("grpc",),
    "snowflake-connector-python": ("snowflake",),
    "databricks-sql-connector": ("databricks",),
    "aliyun-python-sdk-core": ("aliyunsdkcore",),
    "tencentcloud-sdk-python": ("tencentcloud",),
    "ruamel-yaml": ("ruamel",),
    "markdown-it-py": ("markdown_it",),
    "msgpack-python": ("msgpack",),
    "pyopenssl": ("OpenSSL",),
    "dnspython": ("dns",),
    "python-multipart": ("multipart", "python_multipart"),
    "pywin32": ("win32api", "win32con"),
    "ibm-db": ("ibm_db",),
    "typing-extensions": ("typing_extensions",),
    "zope-interface": ("zope",),
    "zope-event": ("zope",),
    "jinja2": ("jinja2",),
    "python-jose": ("jose",),
    "azure-storage-blob": ("azure",),
    "azure-identity": ("azure",),
    "tavily-python": ("tavily",),
    "firecrawl-py": ("firecrawl",),
    "youtube-transcript-api": ("youtube_transcript_api",),
    "lark-oapi": ("lark_oapi",),
    "qdrant-client": ("qdrant_client",),
    "pinecone-client": ("pinecone",),
    "weaviate-client": ("weaviate",),
    "sentence-transformers": ("sentence_transformers",),
    "duckduckgo-search": ("duckduckgo_search",),
    "html5lib": ("html5lib",),
    "pyodps": ("odps",),
    "cx-oracle": ("cx_Oracle",),
    "clickhouse-connect": ("clickhouse_connect",),
    "clickhouse-driver": ("clickhouse_driver",),
    # named like their module, listed so that no other package is taken for them
    "esdk-obs-python": ("obs",),
    "biopython": ("Bio",),
    "requests-oauthlib": ("requests_oauthlib",),
    "google-generativeai": ("google",),
    "google-genai": ("google",),
    "pyjwt-crypto": ("jwt",),
    "msgraph-sdk": ("msgraph",),
    "pymysql": ("pymysql",),
    "psycopg2": ("psycopg2",),
    "psycopg": ("psycopg",),
    "sqlalchemy": ("sqlalchemy",),
    "openai": ("openai",),
    "numpy": ("numpy",),
    "pandas": ("pandas",),
    "redis": ("redis",),
    "boto3": ("boto3",),
    "botocore": ("botocore",),
    "lxml": ("lxml",),
    "openpyxl": ("openpyxl",),
    "markdown": ("markdown",),
}


@cache
def _index() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(INDEX.read_text(encoding="utf-8"))
    return data


def import_names(distribution: str) -> frozenset[str]:
    """The top-level modules a distribution installs: as read from its install, else its alias,
    else the module of its own name."""
    name = canonicalize_name(distribution)
    known = _index()["distributions"].get(name)
    if known is not None and known["imports"]:
        return frozenset(known["imports"])
    return frozenset(ALIASES.get(name, (name.replace("-", "_"),)))


def known_imports(distribution: str) -> bool:
    """True when the distribution's modules are known (read from its install, or an alias)."""
    name = canonicalize_name(distribution)
    entry = _index()["distributions"].get(name)
    return bool(entry and entry["imports"]) or name in ALIASES


def indexed(distribution: str) -> bool:
    """True when the index holds the distribution (so its dependencies are known)."""
    return canonicalize_name(distribution) in _index()["distributions"]


def closure(distributions: Iterable[str]) -> tuple[frozenset[str], bool]:
    """The distributions installed with `distributions` (themselves included), and whether all
    their dependencies are known (every one of them is in the index)."""
    held = _index()["distributions"]
    seen: set[str] = set()
    complete = True
    pending = [canonicalize_name(name) for name in distributions]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        entry = held.get(name)
        if entry is None:
            complete = False
            continue
        pending.extend(entry["requires"])
    return frozenset(seen), complete


def installed_imports(python: Path) -> frozenset[str]:
    """The top-level modules the distributions of a built environment install (`python` is its
    interpreter, `<env>/bin/python`), read from their `.dist-info` as the index is."""
    folders = sorted((python.parent.parent / "lib").glob("python*/site-packages"))
    return frozenset(
        module
        for folder in folders
        for metadata, top_level, record in _dist_infos(folder)
        for module in _imports(top_level, record)
    )


def derive(sources: Iterable[Path]) -> dict[str, object]:
    """The index, from installed environments (site-packages folders) and wheels."""
    found: dict[str, dict[str, list[str]]] = {}
    for source in sources:
        for metadata, top_level, record in _dist_infos(source):
            name, requires = _read_metadata(metadata)
            entry = found.setdefault(name, {"imports": [], "requires": []})
            imports = _imports(top_level, record)
            entry["imports"] = sorted({*entry["imports"], *imports})
            entry["requires"] = sorted({*entry["requires"], *requires})
    return {"distributions": dict(sorted(found.items()))}


def _dist_infos(source: Path) -> Iterator[tuple[str, str, str]]:
    """(METADATA, top_level.txt, RECORD) of each distribution in a folder or a wheel."""
    if source.is_dir():
        for folder in sorted(source.glob("*.dist-info")):
            yield (
                (folder / "METADATA").read_text(encoding="utf-8"),
                _text(folder / "top_level.txt"),
                _text(folder / "RECORD"),
            )
        return
    with zipfile.ZipFile(source) as archive:
        names = archive.namelist()
        info = next(name.split("/")[0] for name in names if name.split("/")[0].endswith(".dist-info"))

        def read(file: str) -> str:
            member = f"{info}/{file}"
            return archive.read(member).decode() if member in names else ""

        yield read("METADATA"), read("top_level.txt"), read("RECORD")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def _read_metadata(text: str) -> tuple[str, list[str]]:
    name = ""
    requires: list[str] = []
    for line in text.splitlines():
        if not line:
            break  # the headers end at the first empty line
        if line.startswith("Name:"):
            name = canonicalize_name(line.split(":", 1)[1].strip())
        elif line.startswith("Requires-Dist:"):
            try:
                requirement = Requirement(line.split(":", 1)[1].strip())
            except InvalidRequirement:
                continue
            # where Dify runs a plugin: `cffi` for gevent on Windows is not installed there
            if requirement.marker is None or requirement.marker.evaluate(DAEMON_MARKERS):
                requires.append(canonicalize_name(requirement.name))
    return name, requires


def _imports(top_level: str, record: str) -> set[str]:
    names = {line.strip() for line in top_level.splitlines() if line.strip() and "/" not in line}
    if names:
        return names
    for line in record.splitlines():
        first = line.split(",", 1)[0].split("/")[0]
        if first.endswith(".py"):
            names.add(first.removesuffix(".py"))
        elif "/" in line.split(",", 1)[0] and not first.endswith((".dist-info", ".data")) and first != "..":
            names.add(first)
    return {name for name in names if name.isidentifier() and name != "__pycache__"}


def merged(old: dict[str, Any], new: dict[str, Any]) -> dict[str, object]:
    """Two indexes as one: a distribution in both gets the union of its imports and requirements."""
    found = {name: dict(entry) for name, entry in old["distributions"].items()}
    for name, entry in new["distributions"].items():
        held = found.setdefault(name, {"imports": [], "requires": []})
        held["imports"] = sorted({*held["imports"], *entry["imports"]})
        held["requires"] = sorted({*held["requires"], *entry["requires"]})
    return {"distributions": dict(sorted(found.items()))}


if __name__ == "__main__":
    # `--add SOURCE...` reads more distributions into the committed index instead of replacing it
    adding = sys.argv[1:2] == ["--add"]
    index = derive(Path(argument) for argument in sys.argv[1 + adding :])
    if adding:
        index = merged(_index(), index)
    INDEX.write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
